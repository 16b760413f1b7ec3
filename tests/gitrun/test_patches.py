"""Review-mode patches of a git run: `slmcode apply` commits them (on the run's branch before accept, on the
user's branch in place); patches of runs without git apply as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from slmcode.config import Settings
from slmcode.gitrun.ops import accept
from slmcode.gitrun.session import GitRun
from slmcode.tools.context import ToolContext
from slmcode.tools.toolset import make_tools, run_tool_call
from tests.gitrun.helpers import git, slmcode
from tests.graph.scenario import MULTIPLY_END, make_repo

RUN = "run-20260101-000000-f00d"
OPS = "calc/ops.py"


def _stage_review_edit(repo: Path, run_id: str) -> None:
    """The worker's ws_write in review mode, through the real tools: a patch in .slmcode/pending/."""
    ctx = ToolContext(workspace=repo, settings=Settings(permission="review"), run_id=run_id, task_id="t1")
    tools = make_tools(ctx)
    run_tool_call(tools, {"name": "ws_read", "args": {"path": OPS}, "id": "c1"})
    edit = {"path": OPS, "old_str": MULTIPLY_END, "new_str": MULTIPLY_END + "\n# reviewed edit\n"}
    reply = run_tool_call(tools, {"name": "ws_edit", "args": edit, "id": "c2"})
    assert "staged as patch 0001" in str(reply.content), reply.content


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path)


def test_applying_a_branch_runs_patch_commits_it_on_the_branch_and_accept_brings_it(repo: Path) -> None:
    run = GitRun.start(repo, RUN, "branch", stash=False)
    _stage_review_edit(repo, RUN)
    run.finish([])
    result = slmcode("apply", "-w", str(repo))
    assert result.returncode == 0, result.stderr
    assert f"committed 0001  {OPS} on slmcode/{RUN}" in result.stdout
    assert "reviewed edit" not in (repo / OPS).read_text()  # the user's folder waits for accept
    assert "Slmcode-Patch: 0001" in git(repo, "log", "-1", "--format=%B", f"slmcode/{RUN}")
    assert "reviewed edit" in git(repo, "show", f"slmcode/{RUN}:{OPS}")
    assert slmcode("diff", "-w", str(repo)).stdout.strip() == "No pending patches."
    accept(repo, RUN)
    assert "reviewed edit" in (repo / OPS).read_text()


def test_applying_an_in_place_runs_patch_writes_and_commits_it_on_the_users_branch(repo: Path) -> None:
    run = GitRun.start(repo, RUN, "in-place", stash=False)
    _stage_review_edit(repo, RUN)
    run.finish([])
    head = git(repo, "rev-parse", "HEAD")
    result = slmcode("apply", "1", "-w", str(repo))
    assert result.returncode == 0, result.stderr
    assert "reviewed edit" in (repo / OPS).read_text()
    assert git(repo, "rev-list", "--count", f"{head}..HEAD") == "1" and git(repo, "status", "--porcelain") == ""


def test_a_patch_of_a_run_without_git_applies_as_before(repo: Path) -> None:
    _stage_review_edit(repo, "run-without-git")
    head = git(repo, "rev-parse", "HEAD")
    result = slmcode("apply", "-w", str(repo))
    assert result.stdout.strip() == f"applied 0001  {OPS}"
    assert "reviewed edit" in (repo / OPS).read_text() and git(repo, "rev-parse", "HEAD") == head
