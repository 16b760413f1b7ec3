"""Static lint of the changed files with the language pack's linter (the quality block's `lint` command). A
command that lints the whole tree (`ruff check .`) is narrowed to the changed files its linter reads, so the
task answers for its own lines; a command that takes packages (`go vet ./...`) runs as it is."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path

from slmcode.config import Settings
from slmcode.environment import Environment
from slmcode.gates.command import run_gate_command
from slmcode.gates.verdict import GateVerdict

GATE = "lint"
# The files each linter reads, for narrowing `LINTER ... .` to the changed files.
READS = {
    "ruff": (".py", ".pyi"),
    "flake8": (".py",),
    "pylint": (".py",),
    "mypy": (".py", ".pyi"),
    "pyflakes": (".py",),
    "eslint": (".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs"),
    "rubocop": (".rb",),
    "shellcheck": (".sh",),
}


def lint_command(configured: Sequence[str], files: Sequence[str]) -> str | None:
    """The lint command for `files`, or None when none is configured or it reads none of them."""
    command = next((c.strip() for c in configured if c.strip()), None)
    if command is None:
        return None
    words = command.split()
    reads = READS.get(Path(words[0]).name)
    if words[-1] != "." or reads is None:
        return command
    mine = [f for f in files if f.lower().endswith(reads)]
    return shlex.join([*words[:-1], *mine]) if mine else None


def check_lint(
    workspace: Path,
    settings: Settings,
    configured: Sequence[str],
    files: Sequence[str],
    allowed: Sequence[str] = (),
    environment: Environment | None = None,
) -> GateVerdict | None:
    """None when the task changed no file; UNVERIFIED when no linter is configured or installed."""
    if not files:
        return None
    if not any(c.strip() for c in configured):
        return GateVerdict(GATE, "UNVERIFIED", "skipped: the quality block has no lint command")
    command = lint_command(configured, files)
    if command is None:
        return None  # the linter reads none of the changed files
    return run_gate_command(GATE, workspace, settings, command, allowed, environment=environment)
