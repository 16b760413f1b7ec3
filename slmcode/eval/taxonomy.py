"""Why an attempt failed, in the words users of small models ask about: one label per failed attempt.

The signals are counted while the agent runs (from the run's trace for the harness, from the loop itself
for the baseline); `classify` turns them into the single most telling label. A run that timed out or ran
out of window is labelled so whatever else happened; a run that changed nothing is labelled by what kept
it from changing anything; a run that changed files but did not pass is `tests_failed` (or `loop`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

FAILURES = (
    "malformed_tool_call",
    "invalid_structured_answer",
    "loop",
    "empty_patch",
    "context_overflow",
    "timeout",
    "tests_failed",
    "error",
)
LOOP_REPEATS = 3  # the same call with the same arguments this many times in a row is a loop
# The texts tools/toolset.py answers a call the harness could not run as sent.
MALFORMED_MARKERS = ("is not a valid tool", "Error: invalid arguments for", "are not a JSON object")
# How a server (context length exceeded, prompt too long) or the client's own budget guard (exceeds the prompt
# limit) says a request does not fit the window.
OVERFLOW_MARKERS = ("context", "too long", "prompt limit", "maximum length")


@dataclass
class Signals:
    malformed_calls: int = 0
    structured_failures: int = 0
    overflows: int = 0
    longest_repeat: int = 0
    loop_stops: int = 0  # tasks the harness's loop guard stopped (nodes/loop_guard.py)
    error: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def is_malformed(tool_result: str) -> bool:
    return any(marker in tool_result for marker in MALFORMED_MARKERS)


def is_overflow(error: str) -> bool:
    return any(marker in error.lower() for marker in OVERFLOW_MARKERS)


def longest_repeat(calls: Iterable[tuple[str, Any]]) -> int:
    """The longest run of identical consecutive calls (name and arguments)."""
    best, run, previous = 0, 0, None
    for name, args in calls:
        key = (name, json.dumps(args, sort_keys=True, default=str))
        run = run + 1 if key == previous else 1
        previous = key
        best = max(best, run)
    return best


def classify(*, solved: bool, timed_out: bool, signals: Signals, files_changed: list[str]) -> str | None:
    """The failure label of an attempt, None when it solved the task."""
    if solved:
        return None
    if timed_out:
        return "timeout"
    if signals.overflows:
        return "context_overflow"
    looped = signals.longest_repeat >= LOOP_REPEATS or signals.loop_stops > 0
    if not files_changed:
        if signals.malformed_calls:
            return "malformed_tool_call"
        if signals.structured_failures:
            return "invalid_structured_answer"
        if looped:
            return "loop"
        return "error" if signals.error else "empty_patch"
    return "loop" if looped else "tests_failed"
