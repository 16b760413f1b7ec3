"""The TaskPack: what one role sees for one task, as sections in a fixed order, rendered deterministically.

The system message is the stable prefix (system prompt, tool contract, instructions, skill cards, repo map):
byte-identical for every task of a role in a run, so a server's KV cache keeps it. Everything task-specific
goes to the human message, last.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from slmcode.packs.excerpts import Excerpt
from slmcode.packs.sections import SECTION_SEPARATOR, STABLE_SECTIONS, Section

if TYPE_CHECKING:
    from langchain_core.messages import BaseMessage


@dataclass(frozen=True)
class MapEntry:
    """A symbol the repository map lists: its file, name and 1-based line."""

    path: str
    symbol: str
    line: int


@dataclass(frozen=True)
class TaskPack:
    role: str
    budget: int
    tokens: int
    parts: tuple[Section, ...]
    excerpts: tuple[Excerpt, ...] = ()
    map_entries: tuple[MapEntry, ...] = ()
    notes: tuple[str, ...] = ()  # what the pack had to do without, and why (no map, retrieval fallback, cuts)

    @property
    def sections(self) -> list[tuple[str, int, str]]:
        """(name, tokens, text) of every section, in render order, empty ones included with 0 tokens."""
        return [(s.name, s.tokens, s.text) for s in self.parts]

    def system_text(self) -> str:
        return join_sections([s for s in self.parts if s.name in STABLE_SECTIONS])

    def human_text(self) -> str:
        return join_sections([s for s in self.parts if s.name not in STABLE_SECTIONS])

    def render(self) -> str:
        return join_sections(list(self.parts))

    @property
    def hash(self) -> str:
        return hashlib.sha256(self.render().encode("utf-8")).hexdigest()

    def messages(self) -> list[BaseMessage]:
        # LangChain is imported here, by the run that sends the pack: `slmcode pack` only renders it.
        from langchain_core.messages import HumanMessage, SystemMessage

        return [SystemMessage(content=self.system_text()), HumanMessage(content=self.human_text())]

    def as_json(self) -> dict[str, Any]:
        """The shape `slmcode pack --json` prints."""
        return {
            "role": self.role,
            "budget": self.budget,
            "tokens": self.tokens,
            "sections": [{"name": s.name, "tokens": s.tokens} for s in self.parts],
            "excerpts": [{"path": e.path, "start": e.start, "end": e.end, "tokens": e.tokens} for e in self.excerpts],
            "map": [{"path": m.path, "symbol": m.symbol, "line": m.line} for m in self.map_entries],
            "text": self.render(),
        }


def join_sections(sections: list[Section]) -> str:
    return SECTION_SEPARATOR.join(s.text for s in sections if s.text)
