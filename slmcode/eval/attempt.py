"""One attempt: one agent on one task, in its own process so a deadline can end it whole.

The parent (eval/runner.py) copies the task's repository, starts `python -m slmcode.eval.attempt` with a JSON
spec on stdin and reads one JSON Attempt from its stdout. The child runs the agent, notes which files changed,
then copies the hidden tests in and grades. A child killed at its deadline is recorded by the parent from
what the workspace and the trace show.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from slmcode.eval.harness import AgentRun
from slmcode.eval.taxonomy import classify

AGENTS = ("harness", "baseline", "mini-swe")  # mini-swe: the mini-swe-agent-like peer (eval/mini_swe.py)


@dataclass
class Attempt:
    task: str
    language: str
    kind: str
    agent: str
    solved: bool
    failure: str | None
    turns: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    wall_seconds: float = 0.0
    files_changed: list[str] = field(default_factory=list)
    signals: dict[str, Any] = field(default_factory=dict)
    outcome: str = ""
    grade_output: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def settle(
    spec: dict[str, Any],
    run: AgentRun,
    *,
    files: list[str],
    solved: bool,
    timed_out: bool,
    seconds: float,
    grade_output: str = "",
) -> Attempt:
    """The attempt's record, with its failure label."""
    from slmcode.eval.suite import SUITE_DIR, load_task

    task = load_task(Path(spec.get("suite", SUITE_DIR)) / spec["task"])
    failure = classify(solved=solved, timed_out=timed_out, signals=run.signals, files_changed=files)
    return Attempt(
        task.id,
        task.language,
        task.kind,
        spec["agent"],
        solved,
        failure,
        run.turns,
        run.prompt_tokens,
        run.completion_tokens,
        round(seconds, 2),
        files,
        run.signals.as_dict(),
        "timed out" if timed_out else run.outcome,
        grade_output,
    )


def perform(spec: dict[str, Any]) -> Attempt:
    """Run the spec's agent on its workspace, then grade."""
    from slmcode.eval.grade import grade
    from slmcode.eval.harness import run_harness
    from slmcode.eval.mini_swe import run_mini_swe
    from slmcode.eval.plain_loop import run_baseline
    from slmcode.eval.suite import SUITE_DIR, changed_files, load_task

    task = load_task(Path(spec.get("suite", SUITE_DIR)) / spec["task"])
    workspace = Path(spec["workspace"])
    started = time.monotonic()
    if spec["agent"] == "harness":
        run = run_harness(task.prompt, workspace, spec["run_id"], spec["settings"])
    elif spec["agent"] == "mini-swe":
        run = run_mini_swe(task.prompt, workspace, task.test_command, spec["settings"])
    else:
        run = run_baseline(task.prompt, workspace, task.test_command, spec["settings"])
    seconds = time.monotonic() - started
    files = changed_files(task, workspace)
    graded = grade(task, workspace)
    return settle(
        spec, run, files=files, solved=graded.passed, timed_out=False, seconds=seconds, grade_output=graded.output
    )


def main() -> None:
    spec = json.loads(sys.stdin.read())
    attempt = perform(spec)
    # The last stdout line is the record; anything a library printed before it is ignored by the parent.
    sys.stdout.write("\n" + json.dumps(attempt.as_dict()) + "\n")


if __name__ == "__main__":
    main()
