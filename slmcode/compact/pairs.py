"""The tool-pair invariant: every tool call is answered, right after its assistant message, and every
tool result answers such a call. A request that breaks it gets a 400 from OpenAI-compatible servers.

Cuts (elision, keep window, dropped rounds, resume) must land on a cut point: an index where no call is
waiting for its result.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from langchain_core.messages import BaseMessage, ToolMessage

from slmcode.compact.messages import calls_of
from slmcode.compact.prompts import SYNTHETIC_TOOL_ERROR


class PairInvariantError(RuntimeError):
    """A compaction step produced a malformed transcript: a bug in slmcode, never a user mistake."""


def validate_pairs(messages: Sequence[BaseMessage]) -> list[str]:
    """Problems with the tool pairs, one line each; an empty list means well-formed."""
    problems: list[str] = []
    pending: dict[str, str] = {}
    seen: set[str] = set()
    for index, message in enumerate(messages):
        if isinstance(message, ToolMessage):
            if pending.pop(message.tool_call_id, None) is None:
                problems.append(f"message {index}: tool result {message.tool_call_id!r} answers no call before it")
            continue
        if pending:
            problems.append(f"message {index}: call(s) {sorted(pending)} have no result before this message")
            pending = {}
        for call in calls_of(message):
            call_id = call.get("id")
            if not call_id:
                problems.append(f"message {index}: call to {call.get('name')!r} has no id")
            elif call_id in seen:
                problems.append(f"message {index}: tool call id {call_id!r} is used twice")
            else:
                seen.add(call_id)
                pending[call_id] = call.get("name", "")
    if pending:
        problems.append(f"end: call(s) {sorted(pending)} have no result")
    return problems


def require_pairs(messages: list[BaseMessage], where: str) -> list[BaseMessage]:
    """Every rung and the hook pass their output through here before returning it."""
    problems = validate_pairs(messages)
    if problems:
        raise PairInvariantError(f"{where} broke the tool-pair invariant: {problems[0]}")
    return messages


def _synthetic_result(call: dict) -> ToolMessage:
    name = call.get("name", "tool")
    return ToolMessage(
        content=SYNTHETIC_TOOL_ERROR.format(name=name), tool_call_id=call["id"], name=name, status="error"
    )


def ensure_pairs(messages: Sequence[BaseMessage]) -> list[BaseMessage]:
    """A well-formed copy: each call's results right after its assistant message (in call order), a synthetic
    error result for a call nobody answered, orphan and duplicate results dropped. Well-formed input comes back
    unchanged."""
    if not validate_pairs(messages):
        return list(messages)
    owner: dict[str, int] = {}  # call id -> index of the assistant message that made it
    for index, message in enumerate(messages):
        for call in calls_of(message):
            if call.get("id") and call["id"] not in owner:
                owner[call["id"]] = index
    answers: dict[str, ToolMessage] = {}
    for index, message in enumerate(messages):
        if isinstance(message, ToolMessage):
            call_id = message.tool_call_id
            if owner.get(call_id, len(messages)) < index and call_id not in answers:
                answers[call_id] = message
    result: list[BaseMessage] = []
    for index, message in enumerate(messages):
        if isinstance(message, ToolMessage):
            continue
        calls: list[dict] = []
        for call in calls_of(message):
            if call.get("id") and owner.get(call["id"]) == index and all(c["id"] != call["id"] for c in calls):
                calls.append(call)
        if len(calls) != len(calls_of(message)):
            # Calls without an id, or reusing one, cannot be answered: keep only the answerable ones.
            message = message.model_copy(update={"tool_calls": calls})
        result.append(message)
        result.extend(answers.get(c["id"]) or _synthetic_result(c) for c in calls)
    return result


def cut_points(messages: Sequence[BaseMessage]) -> list[int]:
    """Indices 0..len where the transcript may be cut: no call before the index is waiting for its result."""
    points: list[int] = []
    pending: set[str] = set()
    for index, message in enumerate(messages):
        if isinstance(message, ToolMessage):
            pending.discard(message.tool_call_id)
            continue
        if not pending:
            points.append(index)
        pending = {c["id"] for c in calls_of(message) if c.get("id")}
    if not pending:
        points.append(len(messages))
    return points


def cut_at_or_before(points: Sequence[int], index: int) -> int:
    """The last cut point not after `index` (the keep window walks back until it is well-formed)."""
    position = bisect.bisect_right(points, index) - 1
    return points[max(position, 0)]


def keep_window_start(messages: Sequence[BaseMessage], keep: int, floor: int = 0) -> int:
    """Start of the shortest well-formed suffix that holds the last `keep` tool results, never before `floor`."""
    results = [i for i, m in enumerate(messages) if isinstance(m, ToolMessage)]
    if len(results) < keep:
        return floor
    start = cut_at_or_before(cut_points(messages), results[-keep])
    return max(start, floor)


def round_starts(messages: Sequence[BaseMessage], start: int) -> list[int]:
    """Cut points from `start` on, excluding the end: each begins one round (a turn and the results it got)."""
    return [p for p in cut_points(messages) if start <= p < len(messages)]
