"""Best-of-N with the verifier. A worker task whose criteria have verify commands runs as
`attempts` parallel branches (Send), each in its own copy of the workspace with its own seed and a warmer
temperature. Each attempt runs the task's criteria in its copy when it ends; when the last one has ended, the
join settles the task: the first attempt whose must criteria all PASS wins (fewest model turns; ties go to the
smaller diff, then the lower number), only its change reaches the workspace, and the others are discarded and
recorded (an `attempt` event each, an `attempts` event, a work-log line and a verdict-table row such as
"attempt 2 of 3 won"). The workspace's own verify then runs as for any task.

A copy is the workspace without its `.git` and `.slmcode` folders, under .slmcode/attempts/RUN/TASK-ROUND-N:
the tools, the jail and the verify commands treat it as a workspace of its own; the tool journal and the
conversation store stay the workspace's, under keys of the attempt's own. A copy is made on the branch's first
step (a half-made one is made again) and found again on resume; the join applies the winner's files, then writes
a marker, then removes the copies, so a join killed half-way applies nothing twice and never from a half-removed
copy.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import logging
import os
import re
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path

from langgraph.runtime import Runtime

from slmcode.budget.profiles import parse_size_billions
from slmcode.environment.clone import clone_file
from slmcode.nodes.corrector import stalled
from slmcode.nodes.disk_changes import net_changes
from slmcode.nodes.quality import quality_of
from slmcode.nodes.winner import Applied, apply_attempt
from slmcode.run_context import RunContext, emit, environment_of, roles_of, settings_of, workspace_of
from slmcode.state import AttemptRun, Criterion, RunState, Task, Verdict, WorkerInput
from slmcode.store.conversations import store_for
from slmcode.store.paths import state_path
from slmcode.tools.criteria import run_criteria
from slmcode.treewalk import copy_tree, remove_tree

log = logging.getLogger(__name__)
ATTEMPTS_DIR = "attempts"
COPY_SKIP = (".git", ".slmcode")
# `attempts: auto`: models under this size (billions of parameters), or of unknown size with at most this
# window, get AUTO_ATTEMPTS attempts; larger ones one.
AUTO_BELOW_BILLIONS = 14.0
AUTO_WINDOW = 8192
AUTO_ATTEMPTS = 2
TEMPERATURE_STEP = 0.25  # attempt k samples at the role's temperature + (k-1) steps, at most 1.0
GATE = "attempts"


def attempts_for(runtime: Runtime[RunContext], task: Task) -> int:
    """How many attempts `task` gets: one unless a verify command can tell them apart and writes go to disk (review
    and dry-run stage their writes, so a copy would hold nothing to pick from)."""
    settings = settings_of(runtime)
    if settings.attempts == 1 or settings.permission != "auto" or "verify" in settings.ablate:
        return 1
    if not any(c.verify for c in task.criteria):
        return 1
    if settings.attempts == "auto":
        seat = roles_of(runtime)["worker"]
        size = parse_size_billions(seat.binding.model)
        small = size < AUTO_BELOW_BILLIONS if size is not None else seat.profile.context_limit <= AUTO_WINDOW
        return AUTO_ATTEMPTS if small else 1
    return int(settings.attempts)


def branches(runtime: Runtime[RunContext], payload: WorkerInput) -> list[WorkerInput]:
    """The worker payloads that start one task: the payload itself, or one per attempt (worker role only: a
    corrector or tester works on the workspace's one result)."""
    count = attempts_for(runtime, payload["task"]) if payload["role"] == "worker" else 1
    if count == 1:
        return [payload]
    return [{**payload, "attempt": k, "attempts_of": count} for k in range(1, count + 1)]  # type: ignore[typeddict-item]


def branch_key(conversation: str, payload: Mapping[str, object]) -> str:
    """The conversation's key for this branch: an attempt's own, so its store rows and journaled calls stay apart."""
    return f"{conversation}#{payload['attempt']}" if payload.get("attempt") else conversation


def sampling(payload: Mapping[str, object], temperature: float) -> dict[str, float | int]:
    """What attempt k > 1 sends beside the role's settings: its own seed and a warmer temperature; nothing else
    (attempt 1 sends exactly what a run without attempts sends)."""
    attempt = int(payload.get("attempt") or 1)  # type: ignore[call-overload]
    if attempt == 1:
        return {}
    return {"seed": attempt, "temperature": round(min(1.0, temperature + TEMPERATURE_STEP * (attempt - 1)), 2)}


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)


def copy_of(workspace: Path, run_id: str, task: Task, attempt: int) -> Path:
    return state_path(workspace, ATTEMPTS_DIR, _safe(run_id), _safe(f"{task.id}-{task.attempts}-{attempt}"))


def _copy_file(source: str, target: str) -> None:
    if stat.S_ISREG(os.lstat(source).st_mode):  # never a FIFO, socket or device: opening one could block
        clone_file(source, target)  # shares the blocks where the filesystem can (environment/clone.py)


def workspace_for(runtime: Runtime[RunContext], payload: WorkerInput) -> Path:
    """Where this branch's tools work: the workspace, or the attempt's copy (made on first use)."""
    real = workspace_of(runtime)
    if not payload.get("attempt"):
        return real
    copy = copy_of(real, payload["run_id"], payload["task"], int(payload["attempt"]))  # type: ignore[typeddict-item]
    if not copy.is_dir():
        partial = copy.with_name(copy.name + ".partial")
        remove_tree(partial)
        copy_workspace(real, partial)
        partial.rename(copy)
    return copy


def copy_workspace(real: Path, target: Path) -> None:
    """The workspace less its .git and .slmcode, its files cloned where the filesystem shares blocks."""
    missed = copy_tree(real, target, frozenset(COPY_SKIP), _copy_file)
    if missed:  # deeper than the system's path limit under .slmcode/attempts: that attempt works without them
        log.warning("the attempt's copy of %s lacks %d path(s), e.g. %.80s...", real, len(missed), missed[0])


def _lines(path: Path) -> list[str]:
    return path.read_bytes().decode("utf-8", "replace").splitlines() if path.is_file() else []


def diff_lines(real: Path, copy: Path, changed: Sequence[str]) -> int:
    """Lines added and removed by the attempt against the workspace (its files are untouched until the join)."""
    total = 0
    for shown in changed:
        diff = difflib.unified_diff(_lines(real / shown), _lines(copy / shown), lineterm="", n=0)
        total += sum(1 for line in diff if line[:1] in "+-" and not line.startswith(("+++", "---")))
    return total


def finish(
    runtime: Runtime[RunContext],
    payload: WorkerInput,
    changed: list[str],
    *,
    turns: int,
    length: int,
    looped: str | None,
    summary: str,
) -> dict:
    """The state update of an attempt that ended: its criteria run in its copy, its diff measured."""
    task, run_id = payload["task"], payload["run_id"]
    attempt, of = int(payload["attempt"]), int(payload["attempts_of"])  # type: ignore[typeddict-item]
    copy = workspace_for(runtime, payload)
    verdicts = run_criteria(
        task.criteria, workspace=copy, settings=settings_of(runtime), allowed_commands=quality_of(runtime).commands()
    )
    musts = [v for v in verdicts if v.criterion.priority == "must" and v.criterion.verify]
    # An attempt that changed nothing cannot win: checks that already passed on the unchanged tree would pass it
    # too, and with the fewest turns.
    passed = looped is None and bool(changed) and bool(musts) and all(v.status == "PASSED" for v in musts)
    run = AttemptRun(
        task_id=task.id,
        round=task.attempts,
        attempt=attempt,
        of=of,
        passed=passed,
        passed_count=sum(v.status == "PASSED" for v in verdicts),
        turns=turns,
        diff_lines=diff_lines(workspace_of(runtime), copy, changed),
        files_changed=changed,
        focus_touched=set(task.focus_files) <= set(changed),
        length=length,
        looped=looped,
        summary=summary[:120],
    )
    emit(
        runtime,
        run_id,
        "attempt",
        role="worker",
        task_id=task.id,
        attempt=attempt,
        of=of,
        passed=passed,
        turns=turns,
        diff_lines=run.diff_lines,
        files_changed=changed,
        verdicts=[v.status for v in verdicts],
    )
    outcome = "checks passed" if passed else ("stopped as a loop" if looped else "checks failed")
    return {
        "attempt_runs": {branch_key(f"{task.id}/{task.attempts}", payload): run},
        "work_log": [f"worker {task.id} attempt {attempt} of {of}: {turns} turns, {len(changed)} files, {outcome}"],
    }


def rank(runs: Sequence[AttemptRun]) -> list[AttemptRun]:
    """Best first: passing attempts by turns (the first to pass), then the smaller diff, then the number; then the
    rest by checks passed, a loop last. Either way an attempt that left a focus file untouched comes after those
    that changed them all: a check that passed before the change (the tests the task did not add) passes a half
    change too, and the half change is the quicker and the smaller one."""
    return sorted(
        runs,
        key=lambda r: (
            not r.passed,
            r.looped is not None,
            not r.focus_touched,
            r.turns if r.passed else -r.passed_count,
            r.diff_lines,
            r.attempt,
        ),
    )


def verdict_line(kept: AttemptRun, runs: Sequence[AttemptRun]) -> str:
    if kept.passed:
        return f"attempt {kept.attempt} of {kept.of} won"
    return f"no attempt of {kept.of} passed its checks; attempt {kept.attempt} kept"


def _why_lost(lost: AttemptRun, kept: AttemptRun) -> str:
    if lost.looped:
        return "stopped as a loop"
    if not lost.passed:
        return "checks failed"
    if not lost.focus_touched and kept.focus_touched:
        return "left a focus file unchanged"
    return "passed later" if lost.turns > kept.turns else "larger diff" if lost.diff_lines > kept.diff_lines else "tie"


def _apply(
    runtime: Runtime[RunContext], run_id: str, task: Task, kept: AttemptRun, runs: Sequence[AttemptRun]
) -> Applied:
    """The kept attempt's change into the workspace through the run's environment (nodes/winner.py), then its
    copies removed. The marker holds what the apply said, so a join resumed after it says the same."""
    real = workspace_of(runtime)
    settled = state_path(real, ATTEMPTS_DIR, _safe(run_id), _safe(f"{task.id}-{task.attempts}"))
    marker = settled.with_name(settled.name + ".applied")
    if marker.exists():
        applied = _recorded(marker)
    else:
        applied = apply_attempt(
            environment_of(runtime),
            real,
            copy_of(real, run_id, task, kept.attempt),
            kept.files_changed,
            run_id=run_id,
            task_id=task.id,
            patches=settled.with_name(settled.name + ".patches"),
        )
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(json.dumps({"attempt": kept.attempt, **dataclasses.asdict(applied)}) + "\n")
    for run in runs:
        remove_tree(copy_of(real, run_id, task, run.attempt))
    return applied


def _recorded(marker: Path) -> Applied:
    try:
        data = json.loads(marker.read_text())
    except ValueError:  # a marker of an older release: the attempt's number alone
        return Applied()
    return (
        Applied(**{k: data.get(k, []) for k in ("merged", "refused", "patches", "withheld")})
        if isinstance(data, dict)
        else Applied()
    )


def settle(state: RunState, runtime: Runtime[RunContext]) -> dict:
    """The join of the worker branches: every running task whose attempts have all ended gets its kept attempt's
    change, conversation and files; a run without attempts passes through unchanged."""
    runs = state.get("attempt_runs") or {}
    if not runs:
        return {}
    run_id, real = state["run_id"], workspace_of(runtime)
    tasks, conversations, log = [], {}, []
    for task in (t for t in state.get("tasks", []) if t.status == "running"):
        mine = [r for r in runs.values() if r.task_id == task.id and r.round == task.attempts]
        if not mine or len(mine) < mine[0].of:
            continue  # attempts still running
        ranked = rank(mine)
        kept, lost = ranked[0], ranked[1:]
        applied = _apply(runtime, run_id, task, kept, mine)
        if applied.merged or applied.refused or applied.withheld:  # the user changed them meanwhile, or a link out
            log.append(f"{task.id}: {applied.message()}")
            emit(
                runtime,
                run_id,
                "user_edits",
                once=True,
                role="worker",
                task_id=task.id,
                message=applied.message(),
                **dataclasses.asdict(applied),
            )
        conversation = f"{task.id}/{task.attempts}"  # worker.conversation_key
        store = store_for(real)
        conversations[conversation] = store.read(run_id, f"worker:{conversation}#{kept.attempt}", kept.length)
        for run in mine:
            store.forget(run_id, f"worker:{conversation}#{run.attempt}")
        changed = net_changes(real, run_id, task.id, [*task.files_changed, *kept.files_changed])
        tasks.append(
            task.model_copy(
                update={"status": "review", "files_changed": changed, "stalled": stalled(task, kept.files_changed)}
            )
        )
        discarded = ", ".join(
            f"attempt {r.attempt} ({_why_lost(r, kept)})" for r in sorted(lost, key=lambda r: r.attempt)
        )
        log.append(f"{task.id}: {verdict_line(kept, mine)}; discarded {discarded}")
        emit(
            runtime,
            run_id,
            "attempts",
            once=True,  # a join killed before its checkpoint runs again on resume and says the same
            role="worker",
            task_id=task.id,
            won=kept.attempt if kept.passed else None,
            kept=kept.attempt,
            of=kept.of,
            discarded=[{"attempt": r.attempt, "why": _why_lost(r, kept)} for r in lost],
        )
        emit(
            runtime,
            run_id,
            "task",
            role="worker",
            task_id=task.id,
            status="review",
            turns=kept.turns,
            files_changed=kept.files_changed,
        )
    if not tasks:
        return {}
    return {"tasks": tasks, "conversations": conversations, "work_log": log}


def attempt_verdicts(task: Task, runs: Mapping[str, AttemptRun]) -> list[Verdict]:
    """The verdict table's row for a task that ran as attempts (its latest such round): which one was kept and
    why the others went. A should row: it informs, the task's own criteria decide; UNVERIFIED when no attempt was
    shown to pass (a FAILED row here would only repeat the criteria's own, and a reviewer model reads it as one
    more failure)."""
    mine = [r for r in runs.values() if r.task_id == task.id]
    if not mine:
        return []
    latest = max(r.round for r in mine)
    ranked = rank([r for r in mine if r.round == latest])
    kept = ranked[0]
    evidence = "; ".join(
        f"attempt {r.attempt}: {'PASSED' if r.passed else 'FAILED'}, {r.turns} turns, {r.diff_lines} diff lines"
        for r in sorted(ranked, key=lambda r: r.attempt)
    )
    criterion = Criterion(text=verdict_line(kept, ranked), priority="should")
    return [
        Verdict(criterion=criterion, status="PASSED" if kept.passed else "UNVERIFIED", evidence=evidence, gate=GATE)
    ]
