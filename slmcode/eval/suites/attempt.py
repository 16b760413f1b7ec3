"""One attempt at a standard-suite item, in its own process so a deadline can end it whole (as the bundled
suite's attempts): the harness runs on the prompt, the tests grade; with `tries` 2 a polyglot exercise that
failed gets a second run in the same workspace, told the test output (aider's protocol).

The parent (suites/run.py) prepares the workspace and starts `python -m slmcode.eval.suites.attempt` with a
JSON spec on stdin; the record is the last line of stdout.
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

OUTPUT_TAIL = 1500  # what the report keeps of the last test output
RETRY_OUTPUT = 8000  # what a second try is shown of the failing tests' output (its end, where the errors are)


@dataclass
class SuiteAttempt:
    suite: str  # polyglot | swebench
    id: str  # language/exercise, or the instance id
    group: str  # the language, or the repository: the published tables' rows
    tries: list[bool]  # the tests' verdict after each try; pass@k is any(tries[:k])
    failure: str | None
    turns: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    wall_seconds: float = 0.0
    files_changed: list[str] = field(default_factory=list)
    signals: dict[str, Any] = field(default_factory=dict)
    outcome: str = ""
    grade_output: str = ""
    tests: dict[str, Any] = field(default_factory=dict)  # SWE-bench: FAIL_TO_PASS / PASS_TO_PASS passed of total

    @property
    def solved(self) -> bool:
        return any(self.tries)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def add(total: AgentRun, run: AgentRun) -> AgentRun:
    """Two runs' figures as one attempt's: sums, the longest repeat, the last outcome and error."""
    total.turns += run.turns
    total.prompt_tokens += run.prompt_tokens
    total.completion_tokens += run.completion_tokens
    total.outcome = run.outcome
    s, r = total.signals, run.signals
    s.malformed_calls += r.malformed_calls
    s.structured_failures += r.structured_failures
    s.overflows += r.overflows
    s.longest_repeat = max(s.longest_repeat, r.longest_repeat)
    s.loop_stops += r.loop_stops
    s.error = r.error or s.error
    return total


def settle(
    spec: dict[str, Any],
    run: AgentRun,
    *,
    tries: list[bool],
    files: list[str],
    timed_out: bool,
    seconds: float,
    grade_output: str = "",
    tests: dict[str, Any] | None = None,
) -> SuiteAttempt:
    failure = classify(solved=any(tries), timed_out=timed_out, signals=run.signals, files_changed=files)
    return SuiteAttempt(
        spec["suite"],
        spec["id"],
        spec["group"],
        tries,
        failure,
        run.turns,
        run.prompt_tokens,
        run.completion_tokens,
        round(seconds, 2),
        files,
        run.signals.as_dict(),
        "timed out" if timed_out else run.outcome,
        grade_output[-OUTPUT_TAIL:],
        tests or {},
    )


def polyglot(spec: dict[str, Any]) -> SuiteAttempt:
    from slmcode.eval.harness import run_harness
    from slmcode.eval.suites.polyglot import TEST_COMMANDS, changed_files, clean_output, load_exercise, restore_tests
    from slmcode.eval.suites.sandboxed import TestRun, run_tests

    exercise = load_exercise(Path(spec["item"]["folder"]), spec["item"]["language"])
    command = TEST_COMMANDS[exercise.language]
    workspace = Path(spec["workspace"])
    started, total, tries, output = time.monotonic(), AgentRun(), [], ""
    prompt = exercise.prompt
    for number in range(1, spec["tries"] + 1):
        add(total, run_harness(prompt, workspace, f"{spec['run_id']}-try{number}", spec["settings"]))
        refused = restore_tests(exercise, workspace)
        graded = (
            TestRun(False, None, refused)
            if refused
            else run_tests(workspace, command.command, command.allowed, spec["grade_timeout"])
        )
        tries.append(graded.passed)
        output = graded.output
        if graded.passed:
            break
        prompt = exercise.retry_prompt(clean_output(output, workspace)[-RETRY_OUTPUT:])
    return settle(
        spec,
        total,
        tries=tries,
        files=changed_files(exercise, workspace),
        timed_out=False,
        seconds=time.monotonic() - started,
        grade_output=output,
    )


def swebench(spec: dict[str, Any]) -> SuiteAttempt:
    from slmcode.eval.harness import run_harness
    from slmcode.eval.suites.swebench import Instance, touched_files
    from slmcode.eval.suites.swegrade import grade_instance

    instance = Instance.from_dict(spec["item"])
    workspace = Path(spec["workspace"])
    started = time.monotonic()
    run = run_harness(instance.prompt, workspace, f"{spec['run_id']}-try1", spec["settings"])
    seconds = time.monotonic() - started
    files = touched_files(instance.base_commit, workspace)
    verdict = grade_instance(instance, workspace, spec["grade_timeout"])
    return settle(
        spec,
        run,
        tries=[verdict.resolved],
        files=files,
        timed_out=False,
        seconds=seconds,
        grade_output=verdict.output,
        tests=verdict.counts(),
    )


def perform(spec: dict[str, Any]) -> SuiteAttempt:
    return polyglot(spec) if spec["suite"] == "polyglot" else swebench(spec)


def main() -> None:
    attempt = perform(json.loads(sys.stdin.read()))
    sys.stdout.write("\n" + json.dumps(attempt.as_dict()) + "\n")


if __name__ == "__main__":
    main()
