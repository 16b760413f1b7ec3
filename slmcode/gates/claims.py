"""The claims gate: a worker that says the tests pass must have seen them pass. The claim holds only when a test
command ran in the task after its last edit and exited 0, or the verify phase's own run of one PASSED on the
finished work (then the claim is true, however the model came by it, and a correct task is not failed for its
words); otherwise the words are the model's, not the disk's."""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

from slmcode.gates.task_record import Edit, ShellRun, TaskRecord
from slmcode.gates.verdict import GateVerdict

GATE = "claims"
CLAIM = re.compile(
    r"(?i)(?<!not )(?<!n't )(?<!not all )(?<!not the )"  # "not all tests pass" claims nothing
    r"\b(?:all\s+(?:the\s+)?|the\s+)?(?:unit\s+)?tests?\s+(?:now\s+|all\s+|still\s+)?"
    r"(?:pass(?:es|ed|ing)?|succeed(?:s|ed)?|(?:are|is)\s+(?:passing|green))\b"
    r"|\btest\s+suite\s+(?:now\s+)?pass(?:es|ed)?\b"
    r"|\b(?:pytest|go test|cargo test|npm test)\s+(?:now\s+)?(?:passes|passed|succeeds|succeeded)\b"
)
# Test runners by name, for a command the quality block does not list.
TEST_RUNNER = re.compile(
    r"(?:^|[\s/])(?:pytest|py\.test|unittest|tox|nox|jest|vitest|mocha|rspec|phpunit|ctest)(?:\s|$)"
    r"|\b(?:go|cargo|npm|yarn|pnpm|bun|deno|dotnet|mvn|gradle|gradlew|swift|mix|make)\s+(?:run\s+)?test\b"
)


def claims_tests_pass(message: str) -> str | None:
    """The words that claim the tests pass, or None."""
    found = CLAIM.search(message)
    return found.group(0).strip() if found else None


def _prefix(command: str) -> tuple[str, ...]:
    try:
        return tuple(shlex.split(command))
    except ValueError:
        return tuple(command.split())


def is_test_command(command: str, known: Sequence[str]) -> bool:
    """A command that runs tests: one of `known` (the quality block's test commands, the task's verify commands)
    or a longer form of one, or a test runner by name."""
    words = _prefix(command)
    if any(words[: len(k)] == k for k in map(_prefix, known) if k):
        return True
    return bool(TEST_RUNNER.search(command))


def check_claims(record: TaskRecord, test_commands: Sequence[str], verified: Sequence[str] = ()) -> GateVerdict | None:
    """None when the final message claims nothing about tests."""
    claim = claims_tests_pass(record.final_message)
    if claim is None:
        return None
    last_edit = max((i for i, s in enumerate(record.steps) if isinstance(s, Edit)), default=-1)
    runs = [
        s
        for s in record.steps[last_edit + 1 :]
        if isinstance(s, ShellRun) and is_test_command(s.command, test_commands)
    ]
    passed = [r for r in runs if r.exit_code == 0]
    if passed:
        return GateVerdict(GATE, "PASSED", f"'{claim}': `{passed[-1].command}` exited 0 after the last edit")
    checked = [c for c in verified if is_test_command(c, test_commands)]
    if checked:
        return GateVerdict(
            GATE, "PASSED", f"'{claim}': the model ran no passing test, but `{checked[0]}` passed when verify ran it"
        )
    if runs:
        code = runs[-1].exit_code
        how = f"exited {code}" if code is not None else "did not run to the end"
        return GateVerdict(GATE, "FAILED", f"'{claim}' is not so: `{runs[-1].command}` {how} after the last edit")
    return GateVerdict(GATE, "FAILED", f"'{claim}' is unproven: no test command ran after the last edit")
