"""Running a suite's test command the way the bundled suite grades: through the project's sandboxed command
runner (tools/shell.run_command) with only that command whitelisted, in an Environment (the local bubblewrap one
unless the caller gives another), never on the host directly."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from slmcode.config import Settings
from slmcode.environment import Environment, LocalEnvironment
from slmcode.tools.shell import run_command

GRADE_TIMEOUT_SECONDS = 300.0


@dataclass(frozen=True)
class TestRun:
    passed: bool  # exit code 0, in time
    exit_code: int | None
    output: str  # whole: the SWE-bench grader reads every test's status from it


def run_tests(
    workspace: Path,
    command: str,
    allowed: Sequence[str],
    timeout: float = GRADE_TIMEOUT_SECONDS,
    environment: Environment | None = None,
) -> TestRun:
    settings = Settings(permission="auto", shell_permission="allow", shell_timeout_seconds=timeout)
    environment = environment or LocalEnvironment.from_settings(workspace, settings)
    result = run_command(workspace, command, settings, allowed_commands=list(allowed), environment=environment)
    if isinstance(result, str):  # refused by the sandbox or the whitelist: the grader's failure, said as it is
        return TestRun(False, None, result)
    return TestRun(result.exit_code == 0 and not result.timed_out, result.exit_code, result.render())
