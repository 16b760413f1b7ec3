"""Read-only accessors over LangChain messages, shared by every compaction module.

Tool calls follow the worker's contract: ws_read(path, offset, limit), ws_list, ws_search,
ws_write(path, content), ws_edit(path, old_str, new_str), ws_shell(command), ws_skill(name); which is which
is tools/registry.py's to say.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

_EXIT_CODE = re.compile(r"exit code:?\s*(-?\d+)", re.IGNORECASE)


def content_text(message: BaseMessage) -> str:
    """The message's text; content blocks are joined, tool calls are not included."""
    content = message.content
    if isinstance(content, str):
        return content
    return "".join(b.get("text", "") if isinstance(b, dict) else str(b) for b in content)


def calls_of(message: BaseMessage) -> list[dict[str, Any]]:
    return [dict(call) for call in message.tool_calls] if isinstance(message, AIMessage) else []


def result_failed(message: ToolMessage) -> bool:
    return message.status == "error" or content_text(message).lstrip().startswith("Error")


def exit_code(text: str) -> int | None:
    """The last "exit code N" in a shell result, or None."""
    found = _EXIT_CODE.findall(text)
    return int(found[-1]) if found else None


def call_target(call: Mapping[str, Any]) -> str:
    """What a call acts on, for one-line summaries: a path, a command, a pattern or a skill name."""
    args = call.get("args") or {}
    for key in ("path", "command", "pattern", "query", "name"):
        value = args.get(key)
        if isinstance(value, str) and value:
            return value
    return ""


def head_length(messages: Sequence[BaseMessage]) -> int:
    """Leading system messages plus the task message: the part no compaction drops."""
    index = 0
    while index < len(messages) and isinstance(messages[index], SystemMessage):
        index += 1
    if index < len(messages) and isinstance(messages[index], HumanMessage):
        index += 1
    return index


def first_line(text: str, limit: int) -> str:
    line = next((s.strip() for s in text.splitlines() if s.strip()), "")
    return line if len(line) <= limit else line[: limit - 3] + "..."


# Where a resume message keeps its structured parts (digest, brief, task), so a later compaction can merge
# them instead of re-reading its own prose. langchain-openai sends no additional_kwargs of a user message.
RESUME_KEY = "slmcode_resume"


def resume_data(message: BaseMessage) -> dict[str, Any]:
    data = message.additional_kwargs.get(RESUME_KEY)
    return data if isinstance(data, dict) else {}
