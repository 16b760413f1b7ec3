"""Best-of-N's apply when an attempt's copy holds a link out of it: a command in the copy can turn a changed
file into a symlink to a host file. The apply must neither crash the node nor carry the host file's bytes into
the workspace; it names the file it withheld. Through the real graph and the scripted server."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from slmcode.nodes.attempts import ATTEMPTS_DIR
from slmcode.store.paths import state_path
from tests.fake_llm import FakeLLM, Reply
from tests.graph.scenario import DIVIDE, divide_worker_replies
from tests.nodes.test_attempts import run, seeded

SECRET = "host-secret-7f3a\n"


def _links_out(repo: Path, secret: Path) -> Callable[[dict[str, Any]], Reply]:
    def answer(request: dict[str, Any]) -> Reply:
        for copy in state_path(repo, ATTEMPTS_DIR).glob("*/*"):  # every attempt's copy, as a command in it could
            test = copy / "tests" / "test_ops.py"
            if test.is_file() and not test.is_symlink():
                test.unlink()
                test.symlink_to(secret)
        return Reply(content="Added divide and its test.")

    return answer


@pytest.mark.slow
def test_a_winner_whose_copy_links_a_changed_file_out_is_applied_without_it(
    fake_llm: FakeLLM, repo: Path, tmp_path: Path
) -> None:
    secret = tmp_path / "outside.txt"
    secret.write_text(SECRET)
    before = (repo / "tests" / "test_ops.py").read_text()
    fake_llm.on(seeded(2), *divide_worker_replies(DIVIDE)[:-1], _links_out(repo, secret))
    result, events = run(fake_llm, repo, attempts=2)
    test = repo / "tests" / "test_ops.py"
    assert not test.is_symlink() and test.read_text() == before  # the link and its bytes stayed out
    assert SECRET not in "".join(p.read_text(errors="replace") for p in repo.rglob("*.py") if p.is_file())
    (said,) = [e for e in events if e["kind"] == "user_edits"]
    assert said["withheld"] and "tests/test_ops.py" in said["withheld"][0]
    assert "not applied" in said["message"] and "symlink" in said["message"]
    assert any("tests/test_ops.py" in line and "not applied" in line for line in result.work_log)
