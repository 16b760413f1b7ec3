"""The --role option of `pack` and `budget`: a role some run could really give a model.

A typo ("wroker") used to be accepted and silently given the default share and a generic prompt, so the pack
or budget shown was one no run ever builds. The roles a run knows: the built-in specialists, every role the
settings give a share or a model, and the role of every agent block visible from the workspace.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from slmcode.errors import SlmcodeError

if TYPE_CHECKING:
    from slmcode.config import Settings

RoleOpt = Annotated[str, typer.Option("--role", help="The role (worker, planner, reviewer, ...).")]


def known_roles(settings: Settings, workspace: Path) -> list[str]:
    """Every role name a run from `workspace` can give a model, sorted."""
    from slmcode.blocks.discovery import discover_blocks
    from slmcode.nodes.prompts import SYSTEM
    from slmcode.tools.registry import TOOL_ROLES

    names = {*SYSTEM, *TOOL_ROLES, *settings.context_role_budget, *settings.roles}
    names.update(getattr(sourced.block, "role", "") for sourced in discover_blocks(workspace).of_kind("agent"))
    return sorted(names)


def checked_role(role: str, settings: Settings, workspace: Path) -> str:
    """`role` when a run knows it; else a SlmcodeError naming it, the closest name and every valid one."""
    from slmcode.nodes.prompts import SYSTEM

    if role in SYSTEM or role in settings.context_role_budget:  # the common case reads no block file
        return role
    roles = known_roles(settings, workspace)
    if role in roles:
        return role
    close = difflib.get_close_matches(role, roles, n=1)
    hint = f"did you mean '{close[0]}'? " if close else ""
    raise SlmcodeError(f"--role: unknown role '{role}' ({hint}known roles: {', '.join(roles)})")
