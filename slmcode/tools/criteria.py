"""The criteria runner: each criterion's verify command, through the same whitelist as the worker's shell.

A criterion can never widen the shell's scope: a command the whitelist refuses is not run and the criterion
stays UNVERIFIED, which denies the reviewer's fast path. PASSED means the command ran here and exited 0;
FAILED that it ran and did not (a timeout is a failure); UNVERIFIED that nothing ran.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal

from slmcode.config import Settings
from slmcode.environment import Environment
from slmcode.state import Criterion, Verdict
from slmcode.tools.settings import ToolSettings
from slmcode.tools.shell import ShellResult, run_command

NO_COMMAND = "no verify command: nothing ran"


def verify_criterion(
    criterion: Criterion,
    *,
    workspace: Path,
    settings: Settings | ToolSettings,
    allowed_commands: Sequence[str] = (),
    confirm: Callable[[str], bool] | None = None,
    environment: Environment | None = None,
) -> Verdict:
    command = (criterion.verify or "").strip()
    if not command:
        return Verdict(criterion=criterion, status="UNVERIFIED", evidence=NO_COMMAND)
    result = run_command(workspace, command, settings, allowed_commands, confirm, environment=environment)
    if not isinstance(result, ShellResult):  # refused before anything ran
        return Verdict(criterion=criterion, status="UNVERIFIED", evidence=result)
    if result.not_found is not None:
        return Verdict(criterion=criterion, status="UNVERIFIED", evidence=result.render(), exit_code=result.exit_code)
    status: Literal["PASSED", "FAILED"] = "PASSED" if result.exit_code == 0 and not result.timed_out else "FAILED"
    return Verdict(criterion=criterion, status=status, evidence=result.render(), exit_code=result.exit_code)


def run_criteria(
    criteria: Sequence[Criterion],
    *,
    workspace: Path,
    settings: Settings | ToolSettings,
    allowed_commands: Sequence[str] = (),
    confirm: Callable[[str], bool] | None = None,
    environment: Environment | None = None,
) -> list[Verdict]:
    """One verdict per criterion, in order. shell_permission applies: deny, or ask with no one to confirm,
    leaves every command UNVERIFIED with the reason as evidence."""
    settings = ToolSettings.of(settings)  # once, not per criterion
    return [
        verify_criterion(
            c,
            workspace=workspace,
            settings=settings,
            allowed_commands=allowed_commands,
            confirm=confirm,
            environment=environment,
        )
        for c in criteria
    ]
