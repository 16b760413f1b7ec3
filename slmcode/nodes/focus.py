"""Which of a task's focus files are done, read off the conversation as the loop guard reads its counts (a resumed
step sees the same), and what the worker does with it. A multi-file task on a large repository spends turns
finding every file: a turn limit sized for one file, and a first "done" taken at its word, ended such tasks with
some files changed and others not, a partial patch the corrector then had to find its way back into. So:
- the turn limit counts from the latest focus file done (`turn_limit`): a task that keeps finishing files keeps
  going, and one that stops finishing them stops max_turns later, never past TURN_CAP times the limit;
- a final answer that leaves focus files unchanged and unexplained is sent back, naming them (`focus_nudge`):
  once, and again only after a focus file was done since: a model that makes no progress is let go;
- the corrector's opening names the focus files still unchanged (`missing_line`).
"Done" is the completeness gate's own definition (gates/completeness.py), so the loop and the gate agree."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from slmcode.config import Settings
from slmcode.gates.completeness import focus_of, untouched_focus
from slmcode.nodes.prompts import CORRECT_MISSING, FOCUS_LEFT
from slmcode.nodes.transcript import changes_by_turn, files_changed
from slmcode.state import Task

TURN_CAP = 3  # a task never runs past this many times its turn limit, however many focus files it finishes
NUDGE_HEAD = FOCUS_LEFT.split("{", 1)[0]


def focus_on(settings: Settings) -> bool:
    """The turn limit counted from progress and the nudge, unless `eval --ablate focus` measures without them."""
    return "focus" not in settings.ablate


def focus_files(task: Task) -> list[str]:
    """The files the task must change: a test task's focus is what it reads, not what it must edit."""
    return focus_of(task.focus_files) if task.kind == "code" else []


def last_done_turn(task: Task, messages: Sequence[BaseMessage]) -> int:
    """The answer that changed the latest focus file no earlier attempt had changed (0: none)."""
    focus = focus_files(task)
    before = set(task.files_changed)
    done: dict[str, int] = {}
    for turn, path in changes_by_turn(messages):
        for f in untouched_focus(focus, sorted(before | done.keys())):
            if not untouched_focus([f], [path]):
                done[f] = turn
    return max(done.values(), default=0)


def turn_limit(max_turns: int, done_at: int) -> int:
    """The turn the task stops at: max_turns after the latest focus file done (`done_at`), within TURN_CAP x
    max_turns."""
    return min(max(max_turns, done_at + max_turns), TURN_CAP * max_turns)


def left(task: Task, messages: Sequence[BaseMessage], final_message: str) -> list[str]:
    """Focus files neither an earlier attempt nor this conversation changed, and the final answer does not explain."""
    return untouched_focus(focus_files(task), [*task.files_changed, *files_changed(messages)], final_message)


def focus_nudge(task: Task, messages: Sequence[BaseMessage], final_message: str) -> HumanMessage | None:
    """The message that sends a final answer back, or None. One nudge, and another only once a focus file was done
    after the last one: a model that answers "done" again without finishing another file goes to review."""
    missing = left(task, messages, final_message)
    if not missing:
        return None
    turn = nudged_at = 0
    for m in messages:
        turn += isinstance(m, AIMessage)
        if isinstance(m, HumanMessage) and str(m.content).startswith(NUDGE_HEAD):
            nudged_at = turn
    if nudged_at and last_done_turn(task, messages) <= nudged_at:
        return None
    return HumanMessage(FOCUS_LEFT.format(files=", ".join(missing)))


def missing_line(task: Task) -> str:
    """The corrector's line naming the focus files no attempt changed yet, or ""."""
    missing = untouched_focus(focus_files(task), task.files_changed)
    return CORRECT_MISSING.format(files=", ".join(missing)) if missing else ""
