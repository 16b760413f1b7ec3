"""Token budgets: how many tokens of context a role may be given for a model.

available = (min(context_limit, cap) - reserve_system - reserve_tools - reserve_response)
            * (1 - slack%) * role_share / token_factor, floored at MinPackTokens.

The token factor (1.0 unless the model profile says otherwise) converts the model's own tokens into the
cl100k tokens we count: SmolLM2 spends ~1.2 of its tokens per cl100k token on code.

Reserves that would take more than half the window (the defaults, 3,448 tokens, on a 2,048 or 4,096
window) are scaled down together to half of it: otherwise a small window has no room for any prompt.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from slmcode.budget.profiles import ModelProfile, resolve_profile
from slmcode.budget.settings import BudgetSettings

DEFAULT_ROLE_SHARE = 1.0
MAX_RESERVE_FRACTION = 0.5


@dataclass(frozen=True)
class Budget:
    model: str
    role: str
    context_limit: int
    window: int
    reserve_system: int
    reserve_tools: int
    reserve_response: int
    slack: int
    role_share: float
    floor: int
    available: int
    token_factor: float = 1.0

    @property
    def prompt_limit(self) -> int:
        """The most prompt tokens (as we count them) any request may carry: the window less the response
        reserve, divided by the token factor."""
        return max(1, int((self.window - self.reserve_response) / self.token_factor))

    def as_dict(self) -> dict[str, int | float | str]:
        return asdict(self)

    def lines(self) -> list[str]:
        """The arithmetic, one step a line, for `slmcode budget`."""
        after_reserves = self.window - self.reserve_system - self.reserve_tools - self.reserve_response
        after_slack = after_reserves - self.slack
        shared = int(max(0, after_slack) * self.role_share / self.token_factor)
        lines = [f"context_limit      {self.context_limit:>8}   ({self.model})"]
        if self.window != self.context_limit:
            lines.append(f"window (capped)    {self.window:>8}")
        lines += [
            f"- reserve_system   {self.reserve_system:>8}",
            f"- reserve_tools    {self.reserve_tools:>8}",
            f"- reserve_response {self.reserve_response:>8}",
            f"= after reserves   {after_reserves:>8}",
            f"- slack            {self.slack:>8}",
            f"= after slack      {after_slack:>8}",
            f"x role_share       {self.role_share:>8.2f}   ({self.role})",
            *(
                [f"/ token_factor     {self.token_factor:>8.2f}   (the model's tokens per cl100k token)"]
                if self.token_factor != 1.0
                else []
            ),
            f"= shared           {shared:>8}",
            f"floor              {self.floor:>8}   (MinPackTokens)",
            f"available          {self.available:>8}",
        ]
        return lines


def role_share(settings: BudgetSettings, role: str) -> float:
    return settings.context_role_budget.get(role, DEFAULT_ROLE_SHARE)


def role_model(settings: BudgetSettings, role: str) -> str:
    """The model that serves `role`: its own (`roles.<role>.model`), else the run's."""
    own = settings.roles.get(role)
    return own.model if own is not None and own.model else settings.model


def role_budget(settings: BudgetSettings, role: str, profile: ModelProfile | None = None) -> Budget:
    """The one answer to "how much may `role` take": the window of the role's own model, its share. The role
    table (providers.roles), the task bound, the packs, the compactor and `slmcode pack`/`budget` all ask here,
    so none of them sizes a role by the run's model when the role has its own. `profile`: the role model's,
    when the caller resolved it already."""
    return compute_budget(settings, role, role_model(settings, role), profile)


def compute_budget(
    settings: BudgetSettings, role: str = "worker", model: str | None = None, profile: ModelProfile | None = None
) -> Budget:
    model = model or settings.model
    profile = profile or resolve_profile(model, settings)
    window = min(profile.context_limit, settings.context_window_cap)
    reserves: tuple[int, ...] = (
        settings.context_reserve_system_tokens,
        settings.context_reserve_tool_tokens,
        settings.context_reserve_response_tokens,
    )
    ceiling = int(window * MAX_RESERVE_FRACTION)
    if sum(reserves) > ceiling:
        reserves = tuple(r * ceiling // sum(reserves) for r in reserves)
    reserve_system, reserve_tools, reserve_response = reserves
    after_reserves = window - reserve_system - reserve_tools - reserve_response
    slack = int(max(0, after_reserves) * settings.context_slack_percent / 100)
    share = role_share(settings, role)
    shared = int(max(0, after_reserves - slack) * share / profile.token_factor)
    return Budget(
        model=model,
        role=role,
        context_limit=profile.context_limit,
        window=window,
        reserve_system=reserve_system,
        reserve_tools=reserve_tools,
        reserve_response=reserve_response,
        slack=slack,
        role_share=share,
        floor=settings.context_min_pack_tokens,
        available=max(settings.context_min_pack_tokens, shared),
        token_factor=profile.token_factor,
    )
