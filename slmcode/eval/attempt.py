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

AGENTS = ("harness", "baseline", "mini-swe", "aider", "aider-diff")  # the peers: eval/mini_swe.py, eval/aider_like.py
RETRY_OUTPUT = 8000  # what a second try is shown of the failing tests' output (its end, where the errors are)


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
    tries: list[bool] = field(default_factory=list)  # the hidden tests' verdict after each try (pass@k: any of k)

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
    tries: list[bool] | None = None,
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
        tries if tries is not None else [solved],
    )


def _run(agent: str, task: Any, prompt: str, workspace: Path, run_id: str, settings: dict[str, Any]) -> AgentRun:
    from slmcode.eval.aider_like import run_aider
    from slmcode.eval.harness import run_harness
    from slmcode.eval.mini_swe import run_mini_swe
    from slmcode.eval.plain_loop import run_baseline

    if agent == "harness":
        return run_harness(prompt, workspace, run_id, settings)
    if agent == "mini-swe":
        return run_mini_swe(prompt, workspace, task.test_command, settings)
    if agent in ("aider", "aider-diff"):
        # The files a user adds to aider's chat: the ones the task changes. Where the suite gives a second try
        # with the failing output, that try is the retry; otherwise the peer runs the visible tests itself once.
        files = sorted(p.relative_to(task.solution).as_posix() for p in task.solution.rglob("*") if p.is_file())
        edit_format = "diff" if agent == "aider-diff" else "whole"
        return run_aider(
            prompt, workspace, files, task.test_command, settings, retry=task.tries < 2, edit_format=edit_format
        )
    return run_baseline(prompt, workspace, task.test_command, settings)


def perform(spec: dict[str, Any]) -> Attempt:
    """Run the spec's agent on its workspace, then grade."""
    from slmcode.eval.grade import grade
    from slmcode.eval.suite import SUITE_DIR, changed_files, load_task
    from slmcode.eval.suites.attempt import add
    from slmcode.eval.suites.polyglot import clean_output

    task = load_task(Path(spec.get("suite", SUITE_DIR)) / spec["task"])
    workspace = Path(spec["workspace"])
    started = time.monotonic()
    run, tries, prompt = AgentRun(), [], task.prompt
    for number in range(1, max(1, task.tries) + 1):
        run_id = spec["run_id"] if number == 1 else f"{spec['run_id']}-try{number}"
        add(run, _run(spec["agent"], task, prompt, workspace, run_id, spec["settings"]))
        files = changed_files(task, workspace)
        graded = grade(task, workspace)
        tries.append(graded.passed)
        if graded.passed or not task.retry:
            break
        # Aider's second try: the prompt again, then the failing tests' output and where to fix it.
        output = clean_output(graded.output, workspace)[-RETRY_OUTPUT:]
        prompt = task.prompt + task.retry.replace("{output}", output.strip())
    seconds = time.monotonic() - started
    return settle(
        spec,
        run,
        files=files,
        solved=any(tries),
        timed_out=False,
        seconds=seconds,
        grade_output=graded.output,
        tries=tries,
    )


def main() -> None:
    spec = json.loads(sys.stdin.read())
    attempt = perform(spec)
    # The last stdout line is the record; anything a library printed before it is ignored by the parent.
    sys.stdout.write("\n" + json.dumps(attempt.as_dict()) + "\n")


if __name__ == "__main__":
    main()
