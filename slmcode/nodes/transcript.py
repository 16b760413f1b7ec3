"""Facts read off a worker's transcript rather than kept beside it, so they survive a crash and a resume:
which files it read, which it changed, and how its checks failed."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from slmcode.state import Verdict

WRITE_TOOLS = frozenset({"ws_write", "ws_edit"})


def _succeeded_calls(messages: Sequence[BaseMessage], names: frozenset[str]) -> list[dict]:
    ok_ids = {
        m.tool_call_id for m in messages
        if isinstance(m, ToolMessage) and m.status != "error" and not str(m.content).startswith("Error")
    }
    return [
        call for m in messages if isinstance(m, AIMessage)
        for call in m.tool_calls if call["name"] in names and call["id"] in ok_ids
    ]


def _path(call: dict) -> str | None:
    path = call.get("args", {}).get("path")
    return str(path).removeprefix("./") if path else None


def files_changed(messages: Sequence[BaseMessage]) -> list[str]:
    return sorted({p for c in _succeeded_calls(messages, WRITE_TOOLS) if (p := _path(c))})


def files_read(messages: Sequence[BaseMessage]) -> set[str]:
    """Files read (or written: a file the worker created is one it knows) in this conversation."""
    return {p for c in _succeeded_calls(messages, frozenset({"ws_read"}) | WRITE_TOOLS) if (p := _path(c))}


def render_failures(verdicts: Sequence[Verdict], evidence_chars: int = 600) -> str:
    lines = [
        f"- [{v.status}] {v.criterion.text}" + (f" (`{v.criterion.verify}`)" if v.criterion.verify else "")
        + (f"\n  {v.evidence[-evidence_chars:].strip()}" if v.evidence.strip() else "")
        for v in verdicts if v.status != "PASSED"
    ]
    return "\n".join(lines) or "- (none)"
