"""A failed run in a folder without git (README's demo copies the calculator to /tmp) ends by naming the files it
left changed and the command that puts them back; that command, run as printed, restores them byte for byte."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from slmcode.cli import app
from slmcode.nodes.prompts import SYSTEM
from tests.fake_llm import FakeLLM, Reply
from tests.graph.scenario import make_repo, python_on_path, script_buggy_worker_then_fix, script_planning


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PATH", python_on_path())
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    repo = make_repo(tmp_path)
    shutil.rmtree(repo / ".git")
    return repo


def files(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not {".slmcode", "__pycache__", ".pytest_cache"} & set(p.relative_to(folder).parts)
    }


def test_a_failed_runs_last_lines_name_its_files_and_an_undo_that_works(fake_llm: FakeLLM, folder: Path) -> None:
    before = files(folder)
    script_planning(fake_llm)
    script_buggy_worker_then_fix(fake_llm, fix=False)
    fake_llm.on(SYSTEM["tester"], Reply(content="Nothing to test."))
    ran = CliRunner().invoke(
        app,
        ["run", "Add a divide operation", "-w", str(folder), "--yes", "--base-url", fake_llm.url],
        env={"SLMCODE_MODEL": "qwen2.5-coder:7b", "SLMCODE_REQUEST_RETRIES": "0", "SLMCODE_MAX_RETRIES": "0"},
    )
    assert ran.exit_code == 1, ran.output
    last = ran.output.strip().splitlines()[-2:]
    assert last[0].startswith("this run left 3 file(s) changed: calc/cli.py, calc/ops.py, tests/test_ops.py"), last
    command = last[1].split("`")[1]
    assert command.startswith("slmcode undo run-")
    undone = CliRunner().invoke(app, shlex.split(command)[1:])
    assert undone.exit_code == 0, undone.output
    assert files(folder) == before
