"""The loop guard: small models repeat the same tool call tens or hundreds of times, and without a guard the task
runs on to its turn limit. Everything here is read off the stored conversation, never kept in a counter beside
it, so a step resumed after a crash counts exactly the calls the step before the crash counted.

Two signals, both reset when the workspace changes (an identical read or test run after an edit can learn
something new):
- the same call (name + canonical JSON arguments) a third time: its result carries a one-line steer with what the
  earlier call answered (`steer`); a fifth time: the task stops (`stop_reason`);
- `loop_guard_calls` calls in a row that neither read a file not read before nor changed one: the task stops.
A stopped task's conversation ends with LOOP_STOP results, and verify adds a FAILED `loop` row (`loop_verdicts`)
that the reviewer rejects on and the verdict table shows."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from slmcode.nodes.prompts import LOOP_CRITERION, LOOP_STEER, LOOP_STOP
from slmcode.state import Criterion, Verdict
from slmcode.tools.registry import FILE_TOOLS, WRITE_TOOLS
from slmcode.tools.shellchanges import noted_changes

if TYPE_CHECKING:
    from slmcode.settings import Lever, OnOff

STEER_AT = 3  # the same call this many times: the result says so
STOP_AT = 5  # the same call this many times: the task stops


class GuardSettings(Protocol):
    loop_guard: OnOff
    ablate: list[Lever]


def guard_on(settings: GuardSettings) -> bool:
    """loop_guard: on, and not switched off by `eval --ablate loop_guard`."""
    return settings.loop_guard == "on" and "loop_guard" not in settings.ablate


def signature(call: Mapping[str, object]) -> str:
    """A call's identity: its tool and its arguments as canonical JSON (key order and spacing do not count)."""
    return f"{call.get('name')}:{json.dumps(call.get('args') or {}, sort_keys=True, default=str)}"


@dataclass
class Tally:
    counts: dict[str, int] = field(default_factory=dict)  # call id -> how many times its call was made by then
    learned: dict[str, str] = field(default_factory=dict)  # signature -> first line of its latest result
    idle: int = 0  # calls since the last new file read or file change (the pending ones included)
    worst: int = 0  # the most times one call of the last answer was made


def _first_line(text: str) -> str:
    line = next((s.strip() for s in text.splitlines() if s.strip()), "(empty)")
    return line if len(line) <= 120 else line[:117] + "..."


def _progress(call: Mapping[str, object], result: ToolMessage, known: set[str]) -> tuple[bool, bool]:
    """(changed a file, read a file not read before) for one call's result; updates `known`."""
    ok = result.status != "error" and not str(result.content).startswith("Error")
    if not ok:
        return False, False
    if call.get("name") in WRITE_TOOLS or noted_changes(str(result.content)):
        return True, False
    artifact = result.artifact if isinstance(result.artifact, dict) else {}
    path = artifact.get("path") if call.get("name") in FILE_TOOLS else None
    if path and path not in known:
        known.add(path)
        return False, True
    return False, False


def tally(messages: Sequence[BaseMessage]) -> Tally:
    """The guard's counts over a conversation whose last answer's calls may still be pending."""
    results = {m.tool_call_id: m for m in messages if isinstance(m, ToolMessage)}
    seen: Counter[str] = Counter()
    known: set[str] = set()
    out = Tally()
    for message in messages:
        if not isinstance(message, AIMessage):
            continue
        worst = 0
        for call in message.tool_calls:
            sig = signature(call)
            seen[sig] += 1
            out.counts[call["id"] or ""] = worst_here = seen[sig]
            worst = max(worst, worst_here)
            result = results.get(call["id"] or "")
            if result is None:
                out.idle += 1
                continue
            out.learned[sig] = _first_line(str(result.content))
            changed, new_read = _progress(call, result, known)
            if changed:
                seen.clear()
            out.idle = 0 if changed or new_read else out.idle + 1
        out.worst = worst
    return out


def steer(call: Mapping[str, object], counted: Tally) -> str:
    """The line a result gets when its call is the same call a third time or more, else "". `counted` is the
    tally of the conversation with this answer's results still pending (what the earlier calls answered)."""
    times = counted.counts.get(str(call.get("id")), 0)
    if times < STEER_AT:
        return ""
    learned = counted.learned.get(signature(call), "(no result yet)")
    return "\n" + LOOP_STEER.format(times=times - 1, learned=learned)


def stop_reason(messages: Sequence[BaseMessage], enabled: bool, idle_limit: int) -> str | None:
    """Why the task must stop before running its last answer's calls, or None."""
    if not enabled:
        return None
    counted = tally(messages)
    if counted.worst >= STOP_AT:
        return f"the same tool call {counted.worst} times"
    if counted.idle >= idle_limit:
        return f"{counted.idle} tool calls in a row with no new file read and no file changed"
    return None


def stopped_by(messages: Sequence[BaseMessage]) -> str | None:
    """The reason a conversation was stopped by the guard (its last results are LOOP_STOP), else None."""
    head = LOOP_STOP.split("{", 1)[0]
    last = messages[-1] if messages else None
    if isinstance(last, ToolMessage) and str(last.content).startswith(head):
        return str(last.content)
    return None


def loop_verdicts(task_id: str, conversations: Mapping[str, Sequence[BaseMessage]]) -> list[Verdict]:
    """A FAILED must row when the task's latest conversation was stopped by the loop guard."""
    keys = [k for k in conversations if k.startswith(f"{task_id}/") and k.rsplit("/", 1)[-1].isdigit()]
    if not keys:
        return []
    latest = conversations[max(keys, key=lambda k: int(k.rsplit("/", 1)[-1]))]
    reason = stopped_by(latest)
    if reason is None:
        return []
    return [Verdict(criterion=Criterion(text=LOOP_CRITERION), status="FAILED", evidence=reason, gate="loop")]
