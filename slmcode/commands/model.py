"""Commands about the model and its budget: config show, tokens, budget (doctor is in commands/doctor.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.table import Table

from slmcode.commands.common import (
    JsonOpt,
    ModelOpt,
    WorkspaceOpt,
    console,
    err_console,
    print_json,
    settings_for,
    trust_status,
)
from slmcode.commands.roles import RoleOpt, checked_role
from slmcode.errors import SlmcodeError

if TYPE_CHECKING:
    from slmcode.compact.toolfit import FittedTools
    from slmcode.config import Settings

app = typer.Typer()


config_app = typer.Typer(help="Settings.", no_args_is_help=True)
app.add_typer(config_app, name="config")


@config_app.command("show")
def config_show(workspace: WorkspaceOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Print the merged settings and where each value came from."""
    loaded = settings_for(workspace, quiet=True)  # the trust line below says what was ignored
    values = loaded.settings.model_dump(mode="json")
    if as_json:
        print_json(
            {
                "settings": values,
                "sources": loaded.sources,
                "workspace_trust": {"status": loaded.trust, "ignored": loaded.ignored},
            }
        )
        return
    table = Table("key", "value", "source")
    for key, value in values.items():
        shown = "***" if key == "api_key" and loaded.sources[key] != "default" else json.dumps(value)
        table.add_row(key, shown, loaded.sources[key])
    console.print(table)
    console.print(trust_status(workspace, loaded), highlight=False, soft_wrap=True)


@app.command()
def tokens(
    text: Annotated[str | None, typer.Argument(help="Text to count.")] = None,
    file: Annotated[Path | None, typer.Option("--file", help="Count a file instead.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Count tokens with the offline cl100k_base counter and say which counter is in use."""
    from slmcode.budget.tokens import default_counter

    if file is not None:
        try:
            text = file.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise SlmcodeError(f"{file}: cannot read ({exc.strerror})") from None
    if text is None:
        text = sys.stdin.read()
    counter = default_counter()
    count = counter.count(text)
    if as_json:
        print_json({"tokens": count, "counter": counter.name})
    else:
        console.print(f"{count} tokens  [dim]({counter.name})[/dim]")


def _worker_room(settings: Settings, role: str, workspace: Path) -> FittedTools | None:
    """The tools and room a tool-using role's first request gets, as the worker computes them; None for others."""
    from slmcode.compact.toolfit import opening_room
    from slmcode.tools.registry import TOOL_ROLES
    from slmcode.tools.settings import ToolSettings

    return opening_room(settings, ToolSettings.of(settings), role, workspace.resolve()) if role in TOOL_ROLES else None


@app.command()
def budget(
    model: ModelOpt = None,
    role: RoleOpt = "worker",
    workspace: WorkspaceOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Show the token budget arithmetic for a model and role."""
    from slmcode.budget.compute import role_budget, role_model
    from slmcode.budget.profiles import resolve_profile

    settings = settings_for(workspace, model=model).settings
    role = checked_role(role, settings, workspace)
    profile = resolve_profile(role_model(settings, role), settings)  # a role with its own model: that model's
    result = role_budget(settings, role, profile)
    guess = profile.context_source == "default"
    room = _worker_room(settings, role, workspace)
    room_json = {"worker_room": room.as_dict()} if room else {}
    if as_json:
        print_json(result.as_dict() | room_json | {"profile": profile.context_source, "window_is_a_guess": guess})
        return
    console.print("\n".join(result.lines()), highlight=False)
    if room:
        console.print("\n".join(room.lines(result.prompt_limit)), highlight=False)
    console.print(f"profile used: {profile.context_source}", highlight=False)
    if guess:
        err_console.print(
            f"[yellow]warning:[/yellow] no profile, family or size matches model '{escape(settings.model)}': the "
            f"window of {profile.context_limit} tokens is a guess (profile used: default); set context_limit "
            "in .slmcode/config.yaml",
            highlight=False,
            soft_wrap=True,
        )
