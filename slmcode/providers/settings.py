"""The slice of the settings a chat client reads: the budget's, plus the server, its key and dialect, retries,
the embedded model's file and the per-role pins. Only the role table (providers.roles) resolves roles from the
whole Settings, because it copies them with a role's share."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from slmcode.budget.settings import BudgetSettings

if TYPE_CHECKING:
    from slmcode.config import RoleModel
    from slmcode.settings import Dialect


class ProviderSettings(BudgetSettings, Protocol):
    base_url: str | None
    api_key: str
    model_path: str | None
    roles: dict[str, RoleModel]
    temperature: float
    request_timeout: float
    request_retries: int
    server_dialect: Dialect
