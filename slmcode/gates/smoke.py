"""The smoke check: the changed modules still compile. Python: `python -m py_compile FILES`, its bytecode kept in
the sandbox's scratch folder (not the workspace, and possible in dry-run); JavaScript: `node --check FILE`.
Other languages: their build is the verify commands' and QA's job (too slow to run per task)."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path

from slmcode.config import Settings
from slmcode.environment import Environment
from slmcode.environment.containment import workspace_root
from slmcode.environment.ossandbox import scratch_dir
from slmcode.gates.command import run_gate_command
from slmcode.gates.verdict import GateVerdict

GATE = "smoke"
PYTHON = (".py", ".pyw")
JAVASCRIPT = (".js", ".mjs", ".cjs")


def smoke_command(workspace: Path, files: Sequence[str]) -> str | None:
    """The compile check for the changed files that exist, or None when none of them has one."""
    present = [f for f in files if (workspace / f).is_file()]
    python = [f for f in present if f.lower().endswith(PYTHON)]
    javascript = [f for f in present if f.lower().endswith(JAVASCRIPT)]
    steps = []
    if python:
        steps.append(shlex.join(["python", "-X", f"pycache_prefix={_cache(workspace)}", "-m", "py_compile", *python]))
    steps += [shlex.join(["node", "--check", f]) for f in javascript]
    return " && ".join(steps) or None


def check_smoke(
    workspace: Path,
    settings: Settings,
    files: Sequence[str],
    allowed: Sequence[str] = (),
    environment: Environment | None = None,
) -> GateVerdict | None:
    command = smoke_command(workspace, files)
    if command is None:
        return None
    shown = command.replace(shlex.join(["-X", f"pycache_prefix={_cache(workspace)}"]) + " ", "")
    return run_gate_command(GATE, workspace, settings, command, allowed, shown=shown, environment=environment)


def _cache(workspace: Path) -> Path:
    return scratch_dir(workspace_root(workspace)) / "pycache"
