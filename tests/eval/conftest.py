"""How the eval tests start `slmcode`: as a user would, in a subprocess, with this interpreter's folder first
on PATH so the graded `python -m pytest` is the one with pytest installed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def slmcode(*args: str, cwd: Path, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(
        [sys.executable, "-c", "from slmcode.cli import main; main()", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=timeout,
    )


@pytest.fixture
def on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """For attempts started in-process: the same PATH the CLI's attempts get."""
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
