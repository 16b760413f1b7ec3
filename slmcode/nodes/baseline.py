"""The unchanged tree's verdicts: a criterion the tree already satisfies before a task's first edit is no test
of that task. The coordinator runs each starting task's verify commands once, before its worker edits anything
(a command shared by several tasks runs once); verify then marks such a criterion UNVERIFIED, not PASSED,
unless the task's edits once made it fail (then it does exercise them).
"""

from __future__ import annotations

import re
from pathlib import Path

from slmcode.config import Settings
from slmcode.environment import Environment
from slmcode.state import Task, Verdict
from slmcode.tools.criteria import verify_criterion

NOT_THIS_CHANGE = "not a test of this change (passes on the unchanged tree)"
# The interpreter's own complaint for `python -m X` (not a test's ModuleNotFoundError, which the change may cause).
MISSING_MODULE = re.compile(r"^\S*python[\d.]*: No module named ([\w.]+)\s*$", re.MULTILINE)


def with_baseline(
    tasks: list[Task],
    *,
    workspace: Path,
    settings: Settings,
    allowed: list[str],
    environment: Environment | None = None,
) -> list[Task]:
    """`tasks` (about to start for the first time) with the verify commands that pass before any edit."""
    passed: dict[str, bool] = {}
    out = []
    for task in tasks:
        if task.attempts > 0:  # a retry: its baseline was taken before its first attempt
            out.append(task)
            continue
        for criterion in task.criteria:
            command = (criterion.verify or "").strip()
            if command and command not in passed:
                verdict = verify_criterion(
                    criterion, workspace=workspace, settings=settings, allowed_commands=allowed, environment=environment
                )
                passed[command] = verdict.status == "PASSED"
        ok = sorted({c.verify.strip() for c in task.criteria if c.verify and passed.get(c.verify.strip())})
        out.append(task.model_copy(update={"baseline_passed": ok}))
    return out


def against_baseline(task: Task, verdicts: list[Verdict]) -> list[Verdict]:
    """A PASSED verdict whose command also passed on the unchanged tree becomes UNVERIFIED, saying why."""
    before = set(task.baseline_passed)
    return [
        v.model_copy(update={"status": "UNVERIFIED", "evidence": f"{NOT_THIS_CHANGE}\n{v.evidence}"})
        if v.status == "PASSED" and (v.criterion.verify or "").strip() in before
        else v
        for v in verdicts
    ]


def still_baseline(task: Task, verdicts: list[Verdict]) -> list[str]:
    """The task's baseline less the commands its edits made fail: a check that broke and then passed again
    did test the change."""
    broke = {(v.criterion.verify or "").strip() for v in verdicts if v.status == "FAILED"}
    return [c for c in task.baseline_passed if c not in broke]


def missing_tool(verdicts: list[Verdict]) -> list[Verdict]:
    """A check that could not start because its interpreter lacks a module (`python -m pytest` where `python`
    has no pytest) tested nothing: UNVERIFIED, naming what is missing, not FAILED as if the change broke it."""
    out = []
    for v in verdicts:
        found = MISSING_MODULE.search(v.evidence) if v.status == "FAILED" else None
        if found is None:
            out.append(v)
            continue
        program = (v.criterion.verify or "").split()[0] if v.criterion.verify else "the command"
        note = (
            f"nothing was tested: `{program}` on PATH has no module {found.group(1)} "
            f"(install it for that interpreter, e.g. `{program} -m pip install {found.group(1)}`)"
        )
        out.append(v.model_copy(update={"status": "UNVERIFIED", "evidence": f"{note}\n{v.evidence}"}))
    return out
