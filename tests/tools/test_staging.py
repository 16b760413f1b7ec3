"""Review and dry-run as an Environment wrapper: the task's writes become patches, its reads see them, and its
programs run in the environment underneath, which lets them read the workspace only."""

from __future__ import annotations

from pathlib import Path

import pytest

from slmcode.config import Settings
from slmcode.environment import Environment, LocalEnvironment
from slmcode.tools.context import ToolContext
from slmcode.tools.pending import apply_pending
from slmcode.tools.staging import StagingEnvironment
from slmcode.tools.toolset import make_tools
from tests.sandboxcheck import needs_sandbox


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    return root


def tools(ctx: ToolContext) -> dict:
    return {t.name: t for t in make_tools(ctx)}


@pytest.mark.parametrize("mode", ["review", "dry-run"])
def test_a_write_in_review_or_dry_run_becomes_a_patch_the_task_reads_back(ws: Path, mode: str) -> None:
    ctx = ToolContext(workspace=ws, settings=Settings(permission=mode))
    assert isinstance(ctx.env, StagingEnvironment) and isinstance(ctx.env, Environment)
    out = tools(ctx)["ws_write"].invoke({"path": "new.py", "content": "x = 1\n"})
    assert not (ws / "new.py").exists() and ctx.staged_patches, out
    assert ctx.env.read("new.py") == b"x = 1\n"
    assert "x = 1" in tools(ctx)["ws_read"].invoke({"path": "new.py"})
    ctx.env.write("calc.py", "caf\xe9 = 1\n".encode("latin-1"))  # not UTF-8: staged byte for byte
    assert ctx.env.read("calc.py") == "caf\xe9 = 1\n".encode("latin-1")
    assert (ws / "calc.py").read_text() == "def add(a, b):\n    return a + b\n"
    with pytest.raises(ValueError):
        ctx.env.write("../outside.py", b"x")


def test_a_review_patch_applies_through_the_environment(ws: Path) -> None:
    ctx = ToolContext(workspace=ws, settings=Settings(permission="review"))
    ctx.env.write("calc.py", b"def add(a, b):\n    return b + a\n")
    applied = apply_pending(ws, environment=LocalEnvironment(ws))
    assert [p.path for p in applied] == ["calc.py"]
    assert (ws / "calc.py").read_text() == "def add(a, b):\n    return b + a\n"


@needs_sandbox
def test_in_review_a_command_reads_the_disk_and_cannot_write(ws: Path) -> None:
    ctx = ToolContext(workspace=ws, settings=Settings(permission="review"))
    tools(ctx)["ws_write"].invoke({"path": "staged.py", "content": "y = 2\n"})
    shell = tools(ctx)["ws_shell"]
    assert "return a + b" in shell.invoke({"command": "cat calc.py"})
    out = shell.invoke({"command": "cp calc.py copied.py"})
    assert "exit code 0" not in out and not (ws / "copied.py").exists()
    assert "No such file" in shell.invoke({"command": "cat staged.py"})  # a patch is not on disk
