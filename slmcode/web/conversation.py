"""A task's conversations as the model saw them: every stored message, with what the last request left out
marked — tool results elided to a placeholder, older turns replaced by the resume brief, ladder rungs that
compacted further — so a user can see which text a small model never had in front of it.

The stored messages come from .slmcode/conversations.sqlite; how the last request cut them comes from the
worker's `view` trace event (the pre-model hook's cuts), so nothing here re-derives the hook's arithmetic.
"""

from __future__ import annotations

from pathlib import Path

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from slmcode.compact.messages import head_length
from slmcode.compact.prompts import ELIDED_TOOL_RESULT
from slmcode.store.conversations import ConversationStore, conversations_path
from slmcode.store.trace_rows import Event
from slmcode.web.html import esc

SHOWN_CHARS = 6000  # of one message; the rest is cut here, not in the store


def _label(message: BaseMessage, in_head: bool) -> str:
    if isinstance(message, SystemMessage):
        return "system"
    if isinstance(message, HumanMessage):
        return "task" if in_head else "harness"  # later human turns are the harness's nudges and notes
    if isinstance(message, ToolMessage):
        return f"result of {message.name or 'a tool'}" + (" (error)" if message.status == "error" else "")
    if isinstance(message, AIMessage) and message.tool_calls:
        return "model: " + ", ".join(str(c["name"]) for c in message.tool_calls)
    return "model"


def _text(message: BaseMessage) -> str:
    text = message.content if isinstance(message.content, str) else str(message.content)
    if isinstance(message, AIMessage):
        text += "".join(f"\n→ {c['name']}({c['args']})" for c in message.tool_calls)
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + f"\n[… {len(text) - SHOWN_CHARS} more chars]"


def marks(messages: list[BaseMessage], view: Event | None) -> list[str]:
    """For each stored message: "" (sent as stored), "elided" or "dropped", as the last request cut them."""
    if view is None:
        return [""] * len(messages)
    elided, dropped_to = int(view.data.get("elided") or 0), int(view.data.get("dropped_to") or 0)
    head = head_length(messages)
    out, results = [], 0
    for index, message in enumerate(messages):
        mark = "dropped" if head <= index < dropped_to else ""
        if isinstance(message, ToolMessage):
            mark = mark or ("elided" if results < elided else "")
            results += 1
        out.append(mark)
    return out


def _message_html(message: BaseMessage, mark: str, number: int, in_head: bool) -> str:
    note = {
        "elided": f"elided: the model saw “{ELIDED_TOOL_RESULT}” instead",
        "dropped": "dropped: replaced by the resume brief (digest and condensed notes)",
    }.get(mark, "")
    badge = f' <span class="mark {esc(mark)}">{esc(note)}</span>' if note else ""
    return (
        f'<li class="msg {esc(mark)}"><strong>#{number} {esc(_label(message, in_head))}</strong>{badge}'
        f"<pre tabindex=0>{esc(_text(message))}</pre></li>"
    )


def conversation_html(messages: list[BaseMessage], view: Event | None, name: str) -> str:
    cut = marks(messages, view)
    summary = (
        f"{len(messages)} messages stored; the last request sent {view.data.get('sent')} "
        f"({cut.count('elided')} results elided, {cut.count('dropped')} dropped)"
        if view
        else f"{len(messages)} messages stored; no request recorded"
    )
    rungs = view.data.get("rungs") if view else None
    ladder = (
        f"<p class=muted>The compaction ladder then ran on that request ({esc(', '.join(rungs))}): the text "
        "sent was shorter still.</p>"
        if rungs
        else ""
    )
    head = head_length(messages)
    numbered = enumerate(zip(messages, cut, strict=True), 1)
    items = "".join(_message_html(m, mark, n, n <= head) for n, (m, mark) in numbered)
    return (
        f"<details class=conversation><summary><strong>{esc(name)}</strong>: {esc(summary)}</summary>"
        f"{ladder}<ol class=messages>{items}</ol></details>"
    )


def conversations_html(workspace: Path, run_id: str, task_id: str, events: list[Event]) -> str:
    """Every conversation of one task (worker and corrector, each attempt), newest request's cuts marked."""
    path = conversations_path(workspace)
    if not path.is_file():
        return "<p class=muted>No conversation stored.</p>"
    views = {str(e.data.get("conversation")): e for e in events if e.kind == "view"}  # the last one wins
    store = ConversationStore(path)
    try:
        names = [n for n in store.names(run_id) if n.split(":", 1)[-1].split("/")[0] == task_id]
        parts = [conversation_html(store.stored(run_id, n), views.get(n), n) for n in names]
    finally:
        store.close()
    return "".join(parts) or "<p class=muted>No conversation stored for this task.</p>"
