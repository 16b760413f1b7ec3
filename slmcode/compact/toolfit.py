"""Which tools a worker request can afford, and the room they leave: the numbers a run really uses.

Every tool's schema rides along with every request. On a 2K window the six tools cost ~800 tokens of a
~1,070-token prompt limit, leaving the opening pack ~190 tokens: the task got cut and no code fitted, so the
worker could only call ws_list, over and over. When the full set leaves the pack less than its floor
(MinPackTokens, or the role's whole budget when that is smaller), the least needed tools go first: the
discovery tools (ws_list, ws_search), whose work the pack's map and excerpts already did, then ws_skill and
ws_shell. Reading, editing and writing files always stay: without them no task can be done.

`slmcode pack`, `budget` and `doctor` call `opening_room` too, so what they promise is what the worker gets. They
fit the built-in tools' plain schemas (tools/schemas.py), the same dicts a run's LangChain tools convert to, so
they need no LangChain; a run fits its LangChain tools, an MCP server's among them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from slmcode.budget.compute import Budget, role_budget
from slmcode.budget.room import WorkerRoom, schema_tokens, worker_room
from slmcode.compact.settings import CompactSettings
from slmcode.packs.skills import discover_skills
from slmcode.tools.context import ToolContext
from slmcode.tools.registry import DROP_ORDER, TOOL_ROLES, gets
from slmcode.tools.schemas import ToolSchema, builtin_schemas
from slmcode.tools.settings import ToolSettings

if TYPE_CHECKING:
    from langchain_core.tools import BaseTool

# What is fitted: a run's LangChain tools, or the plain schemas of the built-in ones (no run, no LangChain).
Offered = TypeVar("Offered", bound="BaseTool | ToolSchema")


def _specs(tools: Sequence[BaseTool | ToolSchema]) -> list[dict[str, Any]]:
    """The tools as the request's `tools` entries, whose tokens are counted."""
    if all(isinstance(t, ToolSchema) for t in tools):
        return [t.as_openai() for t in tools if isinstance(t, ToolSchema)]
    from slmcode.tools.toolset import openai_spec  # imports LangChain: a run's tools only, which have it loaded

    return [t.as_openai() if isinstance(t, ToolSchema) else openai_spec(t) for t in tools]


@dataclass(frozen=True)
class FittedTools(Generic[Offered]):
    tools: list[Offered]
    room: WorkerRoom
    schema_tokens: int
    dropped: tuple[str, ...]  # tools left out so the pack reaches its floor

    @property
    def names(self) -> list[str]:
        return [t.name for t in self.tools]

    def as_dict(self) -> dict[str, object]:
        return {
            "tools": self.names,
            "tools_dropped": list(self.dropped),
            "tool_schemas": self.schema_tokens,
            "room": self.room.room,
            "pack": self.room.pack,
            "result_bytes": self.room.result_bytes,
        }

    def lines(self, prompt_limit: int) -> list[str]:
        """The request's arithmetic, for `slmcode budget`: what the role's first request really gets."""
        dropped = [f"  tools left out   {', '.join(self.dropped)}"] if self.dropped else []
        return [
            f"prompt limit       {prompt_limit:>8}   (window - reserve_response, / token_factor)",
            f"- tool schemas     {self.schema_tokens:>8}   ({len(self.names)} tools)",
            *dropped,
            f"= room             {self.room.room:>8}   (the request's messages)",
            f"opening pack       {self.room.pack:>8}   (what the pack gets in a run)",
        ]


def pack_floor(settings: CompactSettings, budget: Budget) -> int:
    """The pack a worker request must be able to hold: MinPackTokens, or the role's budget when smaller."""
    return min(settings.context_min_pack_tokens, budget.available)


def fit_tools(settings: CompactSettings, budget: Budget, tools: Sequence[Offered]) -> FittedTools[Offered]:
    """`tools` less the least needed ones while their schemas leave the opening pack short of its floor."""
    kept = list(tools)
    dropped: list[str] = []
    cost = schema_tokens(_specs(kept))
    room = worker_room(settings, budget, cost)
    for name in DROP_ORDER:  # dropped first to last while the pack is short of its floor (tools/registry.py)
        if room.pack >= pack_floor(settings, budget):
            break
        if name not in {t.name for t in kept}:
            continue
        kept = [t for t in kept if t.name != name]
        dropped.append(name)
        cost = schema_tokens(_specs(kept))
        room = worker_room(settings, budget, cost)
    return FittedTools(kept, room, cost, tuple(dropped))


def role_tools(role: str, tools: Sequence[Offered]) -> list[Offered]:
    """The tools the registry gives `role` (tools/registry.py): the explorer only reads, the corrector lists no
    folders. A phase the registry does not know (a pipeline's own agent) gets the whole set."""
    return [t for t in tools if gets(role, t.name)] if role in TOOL_ROLES else list(tools)


def opening_room(settings: CompactSettings, tools: ToolSettings, role: str, workspace: Path) -> FittedTools[ToolSchema]:
    """The tools and room `role`'s first request in `workspace` gets, as the worker computes them: the role's
    own tools (role_tools), fitted to the role's budget; `tools` is the tools' own slice."""
    skills = {s.name: s.body for s in discover_skills(workspace)}
    ctx = ToolContext(workspace=workspace, settings=tools, skills=skills.get if skills else None)
    return fit_tools(settings, role_budget(settings, role), role_tools(role, builtin_schemas(ctx)))
