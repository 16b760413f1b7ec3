"""Grading: the hidden tests are copied over the finished work and run through the project's sandboxed command
runner (tools/shell.run_command) in an Environment (the local bubblewrap one unless the caller gives another),
never on the host directly. A solved task is one whose test command exits 0."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from slmcode.config import Settings
from slmcode.environment import Environment, LocalEnvironment
from slmcode.eval.suite import EvalTask, overlay
from slmcode.tools.shell import run_command

GRADE_TIMEOUT_SECONDS = 300.0
OUTPUT_TAIL = 1500  # what the report keeps of the test output


@dataclass(frozen=True)
class Grade:
    passed: bool
    exit_code: int | None
    output: str


def grade(
    task: EvalTask, workspace: Path, timeout: float = GRADE_TIMEOUT_SECONDS, environment: Environment | None = None
) -> Grade:
    """Copy the hidden tests in and run the task's test command in the sandbox."""
    overlay(task.hidden, workspace)
    return run_tests(task, workspace, timeout, environment)


def run_tests(
    task: EvalTask, workspace: Path, timeout: float = GRADE_TIMEOUT_SECONDS, environment: Environment | None = None
) -> Grade:
    """The task's test command over `workspace` as it stands, in the sandbox: with no hidden tests copied in,
    this is the visible check the agent can run too."""
    settings = Settings(permission="auto", shell_permission="allow", shell_timeout_seconds=timeout)
    environment = environment or LocalEnvironment.from_settings(workspace, settings)
    result = run_command(
        workspace, task.test_command, settings, allowed_commands=[task.test_command], environment=environment
    )
    if isinstance(result, str):  # refused: the sandbox or the whitelist said no, which is the grader's failure
        return Grade(False, None, result[-OUTPUT_TAIL:])
    return Grade(result.exit_code == 0 and not result.timed_out, result.exit_code, result.render()[-OUTPUT_TAIL:])
