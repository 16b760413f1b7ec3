"""The role table: for each role of a run, its model, server, profile, budget and chat client, resolved once.

Before, every worker step worked out "which model serves this role" again (binding, profile and budget three
times, a new ChatOpenAI client per call), and three modules each had their own copy of the rule. The run context
holds one table per run; every part asks it. An agent block's `budget_share` is applied here, so the budget a role
is given, the pack built for it and the client's prompt limit all agree.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from langchain_openai import ChatOpenAI

from slmcode.budget.compute import Budget, compute_budget, role_budget
from slmcode.budget.profiles import ModelProfile, resolve_profile
from slmcode.config import Settings
from slmcode.errors import SlmcodeError
from slmcode.providers.factory import RoleBinding, bind_role, chat_client, fallback_binding
from slmcode.providers.server_window import choose_window, server_window

if TYPE_CHECKING:  # a type only: providers do not depend on the blocks at run time
    from slmcode.blocks.schema import AgentBlock


FALLBACK = "@fallback"  # "corrector@fallback": the corrector role on its fallback model (nodes/fallback.py)


def fallback_seat(role: str) -> str:
    return role + FALLBACK


@dataclass(frozen=True)
class Role:
    """One role as this run serves it. `settings` are the run's settings with the role's own share. `window`: the
    `window` event of a seat on a server of its own (a fallback), asked when the seat was first used."""

    name: str
    binding: RoleBinding
    profile: ModelProfile
    budget: Budget
    settings: Settings
    window: dict[str, Any] | None = None


class RoleTable:
    """Roles resolved on first use and kept for the run; clients are shared by the run's parallel workers (the
    openai client under ChatOpenAI is thread-safe, and binding tools makes a new runnable, not a new client)."""

    def __init__(self, settings: Settings, shares: Mapping[str, float] | None = None) -> None:
        self.settings = settings
        self._shares = dict(shares or {})
        self._roles: dict[str, Role] = {}
        self._clients: dict[tuple[str, int | None], ChatOpenAI] = {}
        self._lock = threading.RLock()  # a fallback seat resolves its own role inside the lock
        self._unsaid: list[tuple[str, dict[str, Any]]] = []
        self._windows: dict[tuple[str, str], int | None] = {}

    def __getitem__(self, name: str) -> Role:
        with self._lock:
            role = self._roles.get(name)
            if role is None:
                role = self._roles[name] = self._resolve(name)
            return role

    def client(self, name: str, *, max_tokens: int | None = None) -> ChatOpenAI:
        """The role's chat model; max_tokens defaults to the role's response reserve. It refuses a request its
        server would cut (the server's window less the response), whatever the budget allows."""
        role = self[name]
        with self._lock:
            key = (name, max_tokens)
            if key not in self._clients:
                self._clients[key] = chat_client(
                    role.settings,
                    role.binding,
                    role.budget,
                    max_tokens=max_tokens,
                    server_limit=self._server_limit(role),
                )
            return self._clients[key]

    def take_windows(self) -> list[tuple[str, dict[str, Any]]]:
        """The `window` events of seats on servers of their own asked since the last call (each said once)."""
        with self._lock:
            said, self._unsaid = self._unsaid, []
            return said

    def _server_limit(self, role: Role) -> int | None:
        """The most prompt tokens the role's server keeps, when a set context_limit may size the budget past it (a
        user's context_limit is kept with a warning when the server keeps less): asked once per server and model.
        None: the budget is the server's window already, or the server does not say."""
        if (
            role.window is not None
            or role.settings.context_limit is None
            or not role.binding.base_url
            or role.settings.server_dialect == "llama-cpp-python"
        ):
            return None
        key = (role.binding.base_url, role.binding.model)
        if key not in self._windows:
            self._windows[key] = server_window(role.binding.base_url, role.binding.model, role.settings.api_key).tokens
        tokens = self._windows[key]
        if tokens is None or tokens >= role.budget.window:
            return None
        kept = role.settings.model_copy(update={"context_limit": tokens})
        return compute_budget(kept, role.budget.role, role.binding.model).prompt_limit

    def _resolve(self, name: str) -> Role:
        if name.endswith(FALLBACK):
            return self._fallback(name.removesuffix(FALLBACK))
        settings = self.settings
        if name in self._shares:
            settings = settings.model_copy(
                update={"context_role_budget": {**settings.context_role_budget, name: self._shares[name]}}
            )
        binding = bind_role(settings, name, require_server=False)  # the client asks for the server
        if binding.base_url and binding.base_url != (settings.base_url or "").rstrip("/"):
            return self._on_server(name, name, binding, settings)
        profile = resolve_profile(binding.model, settings)
        return Role(name, binding, profile, role_budget(settings, name, profile), settings)

    def _fallback(self, role: str) -> Role:
        binding = fallback_binding(self.settings, role)
        if binding is None:
            raise SlmcodeError(
                f"no fallback model for the {role} role: set roles.{role}.fallback or roles.worker.fallback"
            )
        return self._on_server(fallback_seat(role), role, binding, self[role].settings)  # with the role's share

    def _on_server(self, seat: str, role: str, binding: RoleBinding, settings: Settings) -> Role:
        """`role` on a server of its own (a role's base_url, a fallback's), sized to that server's window: the
        run's context_limit was fitted to the run's server (or set for its model), so this server is asked on its
        own, when the seat is first used; its `window` event waits in take_windows."""
        served = settings.model_copy(
            update={
                "model": binding.model,
                "base_url": binding.base_url or None,
                "context_limit": None,
                "server_dialect": "openai",
            }
        )
        context_limit, window = choose_window(served)
        settings = served.model_copy(update={"context_limit": context_limit})
        profile = resolve_profile(binding.model, settings)
        budget = compute_budget(settings, role, binding.model, profile)
        self._unsaid.append((seat, window))
        return Role(seat, binding, profile, budget, settings, window)


def team_budgets(agents: Mapping[str, AgentBlock], settings: Settings) -> dict[str, Budget]:
    """Each team agent's token budget for its role's model; an agent's budget_share replaces its role's."""
    return {
        agent_id: RoleTable(settings, {} if agent.budget_share is None else {agent.role: agent.budget_share})[
            agent.role
        ].budget
        for agent_id, agent in sorted(agents.items())
    }
