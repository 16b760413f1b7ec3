"""Best-of-N while the user edits: the winner's files are applied as a change against the files its attempt
started from, through the real graph and the scripted server. The user's edit is simulated by the winning
attempt's last answer, which edits the workspace while both attempts still work in their copies."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from slmcode import api
from slmcode.nodes.attempts import ATTEMPTS_DIR
from slmcode.runner import Event
from slmcode.store.paths import state_path
from tests.fake_llm import FakeLLM, Reply
from tests.graph.scenario import DIVIDE, divide_worker_replies
from tests.nodes.test_attempts import run, seeded


def _user_edits(ops: Path, old: str, new: str) -> Callable[[dict[str, Any]], Reply]:
    def answer(request: dict[str, Any]) -> Reply:
        ops.write_text(ops.read_text().replace(old, new))  # the user, in their editor, mid-run
        return Reply(content="Added divide and its test.")

    return answer


def _run(fake: FakeLLM, repo: Path, old: str, new: str) -> tuple[api.RunResult, list[Event]]:
    """test_attempts' run (attempt 2 wins), its winner's last answer made while the user edits calc/ops.py."""
    fake.on(seeded(2), *divide_worker_replies(DIVIDE)[:-1], _user_edits(repo / "calc" / "ops.py", old, new))
    return run(fake, repo, attempts=2)


@pytest.mark.slow
def test_an_edit_the_user_made_while_the_attempts_worked_is_merged_with_the_winner(
    fake_llm: FakeLLM, repo: Path
) -> None:
    result, events = _run(fake_llm, repo, '"""Return the sum of a and b."""', '"""Return a plus b."""')
    ops = (repo / "calc" / "ops.py").read_text()
    assert '"""Return a plus b."""' in ops  # the user's edit survives
    assert ops.count("def divide") == 1 and "return a / b" in ops  # and the winner's change is there too
    (said,) = [e for e in events if e["kind"] == "user_edits"]
    assert said["merged"] == ["calc/ops.py"] and said["refused"] == []
    assert "calc/ops.py changed while the attempts worked" in said["message"]
    assert any("calc/ops.py" in line and "merged" in line for line in result.work_log)


@pytest.mark.slow
def test_an_edit_that_does_not_merge_is_kept_and_the_winner_is_left_as_a_patch(fake_llm: FakeLLM, repo: Path) -> None:
    result, events = _run(fake_llm, repo, "    return a * b\n", "    return b * a  # the user's\n")
    ops = (repo / "calc" / "ops.py").read_text()
    assert "return b * a  # the user's" in ops and "def divide" not in ops  # the user's file, untouched
    assert "def test_divide" in (repo / "tests" / "test_ops.py").read_text()  # the file nobody else changed
    (said,) = [e for e in events if e["kind"] == "user_edits"]
    assert said["merged"] == [] and said["refused"] == ["calc/ops.py"]
    (patch,) = said["patches"]
    kept = repo / patch
    assert kept.is_file() and kept.is_relative_to(state_path(repo, ATTEMPTS_DIR))
    assert "+def divide" in kept.read_text() and "a/calc/ops.py" in kept.read_text()  # the winner's change
    assert patch in said["message"] and "kept your version" in said["message"]
    assert any(patch in line for line in result.work_log)
