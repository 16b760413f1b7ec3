"""The slice of the settings the token arithmetic reads: the model, its profile overrides, the window's reserves
and shares, and the request limits. A typed view (a Protocol): `Settings` satisfies it, and so does any
object with these fields; `tests/test_settings_slices.py` fails when this package reads a knob not listed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from slmcode.config import ProfileOverride, RoleModel


class BudgetSettings(Protocol):
    model: str
    roles: dict[str, RoleModel]  # a role's own model sizes its budget
    model_profiles: dict[str, ProfileOverride]
    context_limit: int | None
    context_window_cap: int
    context_reserve_system_tokens: int
    context_reserve_tool_tokens: int
    context_reserve_response_tokens: int
    context_slack_percent: float
    context_min_pack_tokens: int
    context_role_budget: dict[str, float]
    react_compact_at_percent: float
    react_keep_tool_results: int
    tool_output_inline_bytes: int
