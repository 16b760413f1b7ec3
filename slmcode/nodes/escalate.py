"""Escalation: a task still rejected after its attempts goes to the role's fallback model when one is configured
and the task has not run there yet (nodes/fallback.py), else to a human (a LangGraph interrupt). The answer
"retry: <guidance>" grants one more attempt, "give_up" fails it; "auto" (or no answer before the timeout,
or --yes) lets the escalate role decide."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from langgraph.runtime import Runtime
from langgraph.types import interrupt

from slmcode.nodes.corrector import attempts_left
from slmcode.nodes.fallback import may_escalate, to_fallback, unfit_fallback
from slmcode.nodes.llm import ask_role
from slmcode.nodes.prompts import ESCALATE
from slmcode.nodes.schemas import Escalation
from slmcode.nodes.transcript import render_failures
from slmcode.run_context import RunContext, emit, settings_of
from slmcode.state import RunState, Task

NOTE_CHARS = 160
EVIDENCE_CHARS = 300


def shorten(text: str, width: int) -> str:
    line = " ".join(text.split())
    return line if len(line) <= width else line[: width - 1] + "…"


def _human(task: Task, question: str) -> Escalation | None:
    reply = interrupt(
        {
            "kind": "escalate",
            "task_id": task.id,
            "title": task.title,
            "question": question,
            "choices": ["retry: <guidance>", "give_up", "auto"],
        }
    )
    text = str(reply or "auto").strip()
    if text.lower().startswith("retry"):
        return Escalation(decision="retry", guidance=text.partition(":")[2].strip())
    if text.lower().replace(" ", "_").startswith("give"):
        return Escalation(decision="give_up")
    return None


def once(notes: Iterable[str]) -> list[str]:
    """Each note once, in order, counted: every review of the same failing check writes the same note."""
    seen = Counter(notes)
    return [note if count == 1 else f"{note} (the same note {count} times)" for note, count in seen.items()]


def escalate(state: RunState, runtime: Runtime[RunContext]) -> dict:
    settings = settings_of(runtime)
    stuck = [t for t in state.get("tasks", []) if t.status == "rejected" and not attempts_left(t, settings)]
    emit(runtime, state["run_id"], "phase", phase="escalate", tasks=[t.id for t in stuck])
    decided: list[Task] = []
    log: list[str] = []
    given_up: list[str] = []  # tasks the user gave up on: the run ends with what it has
    for task in stuck:
        # A stronger model first, before anyone is asked; not one whose server cannot take the task.
        if may_escalate(task, settings) and not unfit_fallback(runtime, state["run_id"], task):
            decided.append(to_fallback(runtime, state["run_id"], task))
            log.append(f"escalate: {task.id} -> fallback {decided[-1].fallback_model}")
            continue
        # Short: a review note repeats the failures' evidence, and on a 2K window the whole of both overflowed
        # the escalate request (1,177 tokens of 1,066) and stopped the run.
        notes = "\n".join(once(shorten(note, NOTE_CHARS) for note in task.review_notes[-3:]))
        question = ESCALATE.format(
            title=task.title,
            attempts=task.attempts,
            notes=notes,
            failures=render_failures(task.verdicts, evidence_chars=EVIDENCE_CHARS),
        )
        choice = _human(task, question)
        if choice is not None and choice.decision == "give_up":
            given_up.append(task.id)
        if choice is None:
            answer = ask_role(runtime, state, "escalate", Escalation, question, task=task)
            choice = answer.value or Escalation(decision="give_up")
        if choice.decision == "retry" and task.allowance == 0:
            note = f"escalation: retry. {choice.guidance}".strip()
            decided.append(
                task.model_copy(update={"allowance": 1, "stalled": False, "review_notes": [*task.review_notes, note]})
            )
        else:
            decided.append(task.model_copy(update={"status": "failed"}))
        log.append(f"escalate: {task.id} -> {decided[-1].status if decided[-1].status == 'failed' else 'retry'}")
    if given_up:  # nothing more goes to the model: the tasks not yet run stay unrun, and say why
        note = f"not run: you gave up on {', '.join(given_up)}"
        settled = {t.id for t in decided}
        for task in state.get("tasks", []):
            if task.id not in settled and task.status in ("pending", "rejected"):
                decided.append(task.model_copy(update={"status": "failed", "review_notes": [*task.review_notes, note]}))
        return {"phase": "escalate", "tasks": decided, "work_log": [*log, note], "given_up": True}
    return {"phase": "escalate", "tasks": decided, "work_log": log}
