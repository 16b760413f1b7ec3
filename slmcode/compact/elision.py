"""Live elision: old tool results lose their content, everything else stays.

Every tool call, every tool_call_id pair, the system message and every user and assistant turn are kept;
only the content of a tool result becomes ELIDED_TOOL_RESULT. The caller decides how many results to elide
(see hook.plan_cuts); eliding the first N results of a transcript gives the same bytes every time, which is
what lets a server reuse its KV cache across requests.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import BaseMessage, ToolMessage

from slmcode.compact.prompts import ELIDED_TOOL_RESULT


def elided(message: ToolMessage) -> ToolMessage:
    """The result with its content replaced; id, name, status and tool_call_id are kept."""
    return message.model_copy(update={"content": ELIDED_TOOL_RESULT, "artifact": None})


def is_elided(message: BaseMessage) -> bool:
    return isinstance(message, ToolMessage) and message.content == ELIDED_TOOL_RESULT


def elide_tool_results(messages: Sequence[BaseMessage], count: int, *, first_index: int = 0) -> list[BaseMessage]:
    """A copy in which tool results numbered below `count` are elided. Results are numbered in transcript order
    starting at `first_index` (the number of results before this slice of the transcript)."""
    view: list[BaseMessage] = []
    number = first_index
    for message in messages:
        if isinstance(message, ToolMessage):
            view.append(elided(message) if number < count else message)
            number += 1
        else:
            view.append(message)
    return view


def elide_all_but(messages: Sequence[BaseMessage], keep: int) -> list[BaseMessage]:
    """Every tool result but the last `keep` elided: what eliding on every request would send."""
    total = sum(isinstance(m, ToolMessage) for m in messages)
    return elide_tool_results(messages, total - keep)
