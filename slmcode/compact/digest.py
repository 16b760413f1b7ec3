"""The must-preserve digest of messages a compaction drops: files read, files edited, commands and their exit
status, failed calls, decisions. List-shaped, in that order, with hard caps so it always fits the resume message.

Built from tool calls and results, never from a model's summary: it is the part of the history that must
survive even when the LLM compactor is unavailable or wrong.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from slmcode.compact.messages import (
    call_target,
    content_text,
    exit_code,
    first_line,
    result_failed,
    resume_data,
)
from slmcode.tools.registry import FILE_READ_TOOLS, SHELL, WRITE_TOOLS

MAX_FILES = 12
MAX_COMMANDS = 5
MAX_FAILURES = 3
MAX_DECISIONS = 5
MAX_BYTES = 1200
ITEM_CHARS = 140
# When the rendering is over MAX_BYTES, the oldest items go first from the first list in this order:
# decisions are prose, files and commands are the facts a resumed model cannot recover on its own.
_SACRIFICE_ORDER = ("decisions", "files_read", "failures", "commands", "files_edited")


@dataclass(frozen=True)
class Digest:
    files_read: tuple[str, ...] = ()
    files_edited: tuple[str, ...] = ()
    commands: tuple[str, ...] = ()  # "command -> exit N"
    failures: tuple[str, ...] = ()
    decisions: tuple[str, ...] = ()

    def render(self) -> str:
        sections = (
            ("Files read", self.files_read),
            ("Files edited", self.files_edited),
            ("Commands", self.commands),
            ("Failed calls", self.failures),
            ("Decisions", self.decisions),
        )
        return "\n".join(f"{title}:\n" + "\n".join(f"- {item}" for item in items) for title, items in sections if items)

    def to_dict(self) -> dict[str, list[str]]:
        return {key: list(value) for key, value in asdict(self).items()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Digest:
        return cls(**{k: tuple(str(v) for v in data.get(k, ())) for k in cls.__dataclass_fields__})

    def is_empty(self) -> bool:
        return not any(asdict(self).values())


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= ITEM_CHARS else text[: ITEM_CHARS - 3] + "..."


def _latest_distinct(items: Iterable[str], limit: int, key: Any = None) -> tuple[str, ...]:
    """The last `limit` distinct items, oldest first; a repeated item counts at its latest position."""
    latest: dict[str, str] = {}
    for item in items:
        k = key(item) if key else item
        latest.pop(k, None)
        latest[k] = item
    return tuple(list(latest.values())[-limit:]) if limit > 0 else ()


def _command_status(result: ToolMessage | None) -> str:
    if result is None:
        return "no result"
    code = exit_code(content_text(result))
    if code is not None:
        return f"exit {code}"
    return "error" if result_failed(result) else "done"


def _observations(messages: Sequence[BaseMessage]) -> dict[str, list[str]]:
    """Raw lists in transcript order; earlier digests (inside resume messages) come first."""
    found: dict[str, list[str]] = {key: [] for key in Digest.__dataclass_fields__}
    results = {m.tool_call_id: m for m in messages if isinstance(m, ToolMessage)}
    for message in messages:
        prior = resume_data(message).get("digest")
        if isinstance(prior, dict):
            for key, items in Digest.from_dict(prior).to_dict().items():
                found[key].extend(items)
        if not isinstance(message, AIMessage):
            continue
        decision = first_line(content_text(message), ITEM_CHARS)
        if decision:
            found["decisions"].append(_clip(decision))
        for call in message.tool_calls:
            name, target = call.get("name", ""), call_target(call)
            result = results.get(call.get("id") or "")
            failed = result is not None and result_failed(result)
            if name == SHELL:
                found["commands"].append(f"{_clip(target)} -> {_command_status(result)}")
            if failed:
                error = first_line(content_text(result), ITEM_CHARS) if result is not None else ""
                found["failures"].append(_clip(f"{name} {target}: {error}"))
            elif name in FILE_READ_TOOLS and target:
                found["files_read"].append(_clip(target))
            elif name in WRITE_TOOLS and target:
                found["files_edited"].append(_clip(target))
    return found


def _capped(found: dict[str, list[str]]) -> Digest:
    edited = _latest_distinct(found["files_edited"], MAX_FILES)
    read = _latest_distinct((f for f in found["files_read"] if f not in edited), MAX_FILES - len(edited))
    return Digest(
        files_read=read,
        files_edited=edited,
        commands=_latest_distinct(found["commands"], MAX_COMMANDS, key=lambda c: c.rsplit(" -> ", 1)[0]),
        failures=_latest_distinct(found["failures"], MAX_FAILURES),
        decisions=_latest_distinct(found["decisions"], MAX_DECISIONS),
    )


def fit_bytes(digest: Digest, limit: int = MAX_BYTES) -> Digest:
    """Drop the oldest items, least important list first, until the rendering fits in `limit` bytes."""
    while len(digest.render().encode()) > limit:
        key = next(k for k in _SACRIFICE_ORDER if getattr(digest, k))
        digest = replace(digest, **{key: getattr(digest, key)[1:]})
    return digest


def build_digest(messages: Sequence[BaseMessage]) -> Digest:
    """The digest of `messages` (typically the ones a compaction drops), merged with any digest they carry."""
    return fit_bytes(_capped(_observations(messages)))
