"""Which sandbox runs commands is never a secret: doctor names it, and where none can run the shell says why
and runs only programs that merely read (no silent fallback to "unsandboxed")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from slmcode.config import Settings
from slmcode.environment import ossandbox
from slmcode.tools.shell import ShellResult, run_command
from tests.fake_llm import FakeLLM


@pytest.fixture
def no_sandbox(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(ossandbox.BWRAP_ENV, "/nonexistent/bwrap")
    ossandbox.bwrap_binary.cache_clear()
    yield
    monkeypatch.delenv(ossandbox.BWRAP_ENV)
    ossandbox.bwrap_binary.cache_clear()


def doctor(base_url: str, **env: str) -> dict:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from slmcode.cli import main; main()",
            "doctor",
            "--base-url",
            base_url,
            "--model",
            "qwen2.5-coder:7b",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **env},
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_doctor_names_the_sandbox(fake_llm: FakeLLM) -> None:
    try:
        ossandbox.bwrap_binary()
    except ossandbox.SandboxUnavailable:
        pytest.skip("no kernel sandbox on this machine")
    assert doctor(fake_llm.url)["sandbox"].startswith("bubblewrap (")
    assert doctor(fake_llm.url, SLMCODE_BWRAP="/nonexistent/bwrap")["sandbox"].startswith("unavailable: ")


def test_without_a_sandbox_only_read_only_programs_run(no_sandbox: None, tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("hello\n")
    settings = Settings()
    read = run_command(tmp_path, "cat a.txt", settings)
    assert isinstance(read, ShellResult) and "hello" in read.output
    for command in ("python -m pytest -q", "find . -name a.txt", "sort a.txt"):
        refused = run_command(tmp_path, command, settings, allowed_commands=["python -m pytest -q"])
        assert isinstance(refused, str) and "No OS sandbox can run here" in refused, refused
    assert ossandbox.status().startswith("unavailable: ")
