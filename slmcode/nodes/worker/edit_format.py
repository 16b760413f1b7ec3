"""The worker's edit format for one step (tools/editformat.py): the role's mode (its setting, the run's, or its
model profile's), the old_str misses read off the conversation, and the repo map's symbol extraction for the
whole-file rewrite's guard."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import BaseMessage
from langgraph.runtime import Runtime

from slmcode.config import Settings
from slmcode.nodes.fallback import seat_of
from slmcode.repomap.definitions import defined_names
from slmcode.run_context import RunContext, roles_of, settings_of, workspace_of
from slmcode.state import WorkerInput
from slmcode.tools.editformat import EditFormat, misses_in


def mode_for(settings: Settings, role: str, profile_format: str) -> str:
    """The role's edit format: replace under `eval --ablate edit_format`, else the role's own setting, the run's,
    or its model profile's."""
    if "edit_format" in settings.ablate:
        return "replace"
    own = settings.roles.get(role)
    return (own.edit_format if own is not None else None) or settings.edit_format or profile_format


def edit_format(runtime: Runtime[RunContext], payload: WorkerInput, messages: Sequence[BaseMessage]) -> EditFormat:
    settings, role, task = settings_of(runtime), payload["role"], payload["task"]
    # A task on its role's fallback model (nodes/fallback.py) edits in the fallback's format, not the small model's.
    mode = mode_for(settings, role, roles_of(runtime)[seat_of(payload)].profile.edit_format)
    return EditFormat(
        mode=mode,
        offer_after=settings.edit_format_misses,
        misses=misses_in(messages, workspace_of(runtime)),
        definitions=defined_names,
        task_text=f"{task.title}\n{task.description}",
    )
