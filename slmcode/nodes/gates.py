"""The verify phase's quality gates (slmcode.gates) for one task: its record read off the conversations of all
its attempts, the gates the quality block switches on, and their verdicts as rows of the verdict table. A gate
that can fail is a must row, so a FAILED gate rejects the task and its evidence reaches the corrector; a gate
that could not check (UNVERIFIED) is a should row."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from langgraph.runtime import Runtime

from slmcode.gates import GateInputs, GateVerdict, run_gates, task_record
from slmcode.gates.claims import is_test_command
from slmcode.nodes.quality import gates_of, quality_of
from slmcode.run_context import RunContext, environment_of, settings_of, workspace_of
from slmcode.state import Criterion, RunState, Task, Verdict

WHAT = {
    "placeholder": "no TODO, stub or empty body left in the added code",
    "completeness": "every focus file touched or explained",
    "claims": "a claim that the tests pass is backed by a passing run",
    "lint": "the linter passes on the changed files",
    "smoke": "the changed modules compile",
}


def _attempt(key: str) -> int:
    tail = key.rsplit("/", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def as_verdict(gate: GateVerdict) -> Verdict:
    priority: Literal["must", "should"] = "should" if gate.status == "UNVERIFIED" else "must"
    criterion = Criterion(text=f"gate {gate.gate}: {WHAT.get(gate.gate, gate.gate)}", priority=priority)
    return Verdict(criterion=criterion, status=gate.status, evidence=gate.evidence, gate=gate.gate)


def gate_verdicts(
    task: Task, state: RunState, runtime: Runtime[RunContext], verdicts: Sequence[Verdict] = ()
) -> list[Verdict]:
    """The gates' rows for `task`; `verdicts` are its criteria's, just run (a PASSED test backs a claim)."""
    conversations = state.get("conversations", {})
    keys = sorted((k for k in conversations if k.startswith(f"{task.id}/")), key=_attempt)
    quality = quality_of(runtime)
    block = runtime.context.resolved_pipeline().quality
    suite = [c for c in (quality.test, *(block.test if block else [])) if c]
    tests = [c for c in (quality.test, *(c.verify for c in task.criteria)) if c]
    inputs = GateInputs(
        workspace=workspace_of(runtime),
        settings=settings_of(runtime),
        record=task_record([conversations[k] for k in keys]),
        files_changed=task.files_changed,
        focus_files=task.focus_files if task.kind == "code" else (),  # the tester's focus is what it reads
        test_commands=[*tests, *(block.test if block else [])],
        # Only a test run backs a claim that the tests pass: a criterion's passing `grep` or build is no test, though
        # the model's own run of it counts as one (test_commands names every verify command).
        verified=[
            c for v in verdicts if v.status == "PASSED" and (c := v.criterion.verify) and is_test_command(c, suite)
        ],
        lint_commands=block.lint if block is not None else [c for c in (quality.lint,) if c],
        allowed=quality.commands(),
        environment=environment_of(runtime),
    )
    return [as_verdict(g) for g in run_gates(inputs, gates_of(runtime))]
