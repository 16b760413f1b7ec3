"""A git run over a real repository: its own branch, one commit per accepted task, the user's branch untouched
until `accept`."""

from __future__ import annotations

from pathlib import Path

import pytest

from slmcode.errors import GitRunError
from slmcode.gitrun.ops import accept
from tests.fake_llm import FakeLLM
from tests.gitrun.helpers import branch_of, git, scripted_run


def test_a_run_commits_each_task_on_its_branch_and_accept_fast_forwards(fake_llm: FakeLLM, repo: Path) -> None:
    user_branch, user_head = branch_of(repo), git(repo, "rev-parse", "HEAD")
    result = scripted_run(fake_llm, repo, git_mode="branch")
    assert result.outcome == "done", result.outcome
    run_branch = f"slmcode/{result.run_id}"
    # The user is back on their branch, which has not moved, and their files are as before the run.
    assert branch_of(repo) == user_branch and git(repo, "rev-parse", "HEAD") == user_head
    assert "divide" not in (repo / "calc" / "ops.py").read_text()
    assert git(repo, "status", "--porcelain") == ""
    subjects = git(repo, "log", "--format=%s", f"{user_head}..{run_branch}").splitlines()
    code, tester = (t for t in result.tasks if t.kind == "code"), (t for t in result.tasks if t.kind == "test")
    code_task, test_task = next(code), next(tester)
    assert subjects == [f"slmcode: {test_task.id} {test_task.title}", f"slmcode: {code_task.id} {code_task.title}"]
    body = git(repo, "log", "-1", "--format=%B", f"{run_branch}~1")
    assert "PASSED" in body and "python -m pytest -q" in body and f"Slmcode-Task: {code_task.id}" in body
    changed = git(repo, "show", "--name-only", "--format=", f"{run_branch}~1").splitlines()
    assert sorted(changed) == ["calc/cli.py", "calc/ops.py", "tests/test_ops.py"]
    assert any("slmcode accept" in note for note in result.git_notes)

    accept(repo, result.run_id)
    assert git(repo, "rev-parse", "HEAD") == git(repo, "rev-parse", run_branch)  # a fast-forward
    assert "return a / b" in (repo / "calc" / "ops.py").read_text()
    with pytest.raises(GitRunError, match="already accepted"):
        accept(repo, result.run_id)


def test_a_dirty_tree_is_refused_and_kept(fake_llm: FakeLLM, repo: Path) -> None:
    (repo / "calc" / "ops.py").write_text((repo / "calc" / "ops.py").read_text() + "# mine\n")
    (repo / "notes.txt").write_text("my notes\n")
    with pytest.raises(GitRunError, match=r"uncommitted changes in calc/ops.py, notes.txt: commit or stash them"):
        scripted_run(fake_llm, repo, git_mode="branch")
    assert (repo / "calc" / "ops.py").read_text().endswith("# mine\n")
    assert (repo / "notes.txt").read_text() == "my notes\n"
    assert branch_of(repo) in ("master", "main")
    assert not fake_llm.requests  # refused before any model call


def test_stash_keeps_the_users_work_out_of_the_run_and_restores_it(fake_llm: FakeLLM, repo: Path) -> None:
    (repo / "README.md").write_text("my edit\n")
    (repo / "notes.txt").write_text("my notes\n")
    git(repo, "add", "notes.txt")  # staged: comes back staged
    result = scripted_run(fake_llm, repo, git_mode="branch", git_stash=True)
    assert result.outcome == "done", result.outcome
    assert (repo / "README.md").read_text() == "my edit\n" and (repo / "notes.txt").read_text() == "my notes\n"
    assert git(repo, "diff", "--cached", "--name-only") == "notes.txt"
    assert git(repo, "stash", "list") == ""
    run_files = git(repo, "diff", "--name-only", "HEAD", f"slmcode/{result.run_id}").splitlines()
    assert "README.md" not in run_files and "notes.txt" not in run_files


def test_a_run_that_fails_before_its_first_checkpoint_leaves_no_branch_and_gives_the_work_back(repo: Path) -> None:
    import socket

    from slmcode import api
    from slmcode.errors import EndpointError

    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    user_branch = branch_of(repo)
    (repo / "notes.txt").write_text("mine\n")
    with pytest.raises(EndpointError, match="unreachable"):
        api.run(
            "Add a divide operation",
            repo,
            base_url=f"http://127.0.0.1:{port}/v1",
            model="qwen2.5-coder:7b",
            git_mode="branch",
            git_stash=True,
        )
    assert branch_of(repo) == user_branch and (repo / "notes.txt").read_text() == "mine\n"
    assert git(repo, "branch", "--list", "slmcode/*") == "" and git(repo, "stash", "list") == ""
