"""A gate's own command (a linter, a compile check), run like any other: through the shell whitelist of
tools/shell.py and the run's Environment (locally the OS sandbox). The command is the harness's, so it is
admitted for this one run; what the model may run does not change."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from slmcode.config import Settings
from slmcode.environment import Environment
from slmcode.gates.verdict import GateVerdict
from slmcode.tools.shell import ShellResult, run_command

DETAIL_LINES = 8  # output lines kept under the evidence line, for the corrector


def _details(output: str) -> str:
    lines = [line for line in output.splitlines() if line.strip()]
    return "\n".join(lines[:DETAIL_LINES])


def run_gate_command(
    gate: str,
    workspace: Path,
    settings: Settings,
    command: str,
    allowed: Sequence[str] = (),
    shown: str | None = None,
    environment: Environment | None = None,
) -> GateVerdict:
    """`shown`: the command as the evidence names it (without harness-only options); `environment`: the run's."""
    shown = shown or command
    result = run_command(workspace, command, settings, [*allowed, *command.split(" && ")], environment=environment)
    if not isinstance(result, ShellResult):  # refused before it ran (shell_permission, the sandbox)
        return GateVerdict(gate, "UNVERIFIED", f"`{shown}` did not run: {result.splitlines()[0] if result else ''}")
    if result.not_found is not None:
        return GateVerdict(gate, "UNVERIFIED", f"skipped: `{result.not_found}` is not installed")
    if result.timed_out:
        return GateVerdict(gate, "FAILED", f"`{shown}` timed out")
    if result.exit_code == 0:
        return GateVerdict(gate, "PASSED", f"`{shown}` exited 0")
    details = _details(result.output)
    return GateVerdict(gate, "FAILED", f"`{shown}` exited {result.exit_code}" + (f"\n{details}" if details else ""))
