"""A git run killed (SIGKILL) after a task's edits and before its commit: resume commits it once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from slmcode import api
from slmcode.eval.scripted import Reply, Request
from slmcode.nodes.prompts import SYSTEM
from tests.fake_llm import FakeLLM
from tests.gitrun.helpers import branch_of, git
from tests.graph.scenario import make_repo, python_on_path, script_buggy_worker_then_fix, script_planning

RUN = "run-20260101-000000-dead"
CHILD = """
import sys
from slmcode import api
api.run("Add a divide operation", sys.argv[1], run_id=sys.argv[2], base_url=sys.argv[3], model="qwen2.5-coder:7b",
        request_retries=0, git_mode="branch")
"""


def test_a_run_killed_between_edits_and_commit_commits_once_on_resume(
    fake_llm: FakeLLM, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", python_on_path())
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    repo = make_repo(tmp_path)
    user_branch, base = branch_of(repo), git(repo, "rev-parse", "HEAD")
    script_planning(fake_llm)
    script_buggy_worker_then_fix(fake_llm)
    reached, release = threading.Event(), threading.Event()

    def hold(request: Request) -> Reply:
        # The code task's first attempt is edited and rejected: its edits are on disk, not committed.
        reached.set()
        release.wait(timeout=120)
        return Reply(content="(the run was killed)")

    fake_llm.on(SYSTEM["corrector"], hold, times=1)
    fake_llm.rules.insert(0, fake_llm.rules.pop())  # before the scripted corrector
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(repo), RUN, fake_llm.url],
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        assert reached.wait(timeout=240), child.stderr.read().decode()[-2000:] if child.poll() is not None else ""
        assert branch_of(repo) == f"slmcode/{RUN}" and "divide" in (repo / "calc" / "ops.py").read_text()
        assert git(repo, "rev-list", "--count", f"{base}..slmcode/{RUN}") == "0"
        os.killpg(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
    finally:
        release.set()
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)

    result = api.resume(RUN, repo, base_url=fake_llm.url)
    assert result.outcome == "done", result.outcome
    tasks = git(repo, "log", "--format=%(trailers:key=Slmcode-Task,valueonly)", f"{base}..slmcode/{RUN}").split()
    assert sorted(tasks) == sorted(t.id for t in result.tasks if t.status == "done")  # each exactly once
    assert len(tasks) == len(set(tasks)) == 2
    code = next(t for t in result.tasks if t.kind == "code")
    assert "return a / b" in git(repo, "show", f"slmcode/{RUN}:calc/ops.py")
    assert code.id in git(repo, "log", "-1", "--format=%B", f"slmcode/{RUN}~1")
    assert branch_of(repo) == user_branch and git(repo, "rev-parse", "HEAD") == base
