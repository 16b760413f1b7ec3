"""Dropping a task from a plan waiting for approval: one edit (run_board.drop_task) behind `slmcode task drop` and the
web page's Drop, so both leave the same plan, record the same event and refuse the same way in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from slmcode import run_board
from slmcode.errors import PlanEditError
from slmcode.store.trace import TraceStore
from slmcode.web import approval
from tests.board.scenario import script_team
from tests.fake_llm import FakeLLM
from tests.web.test_approval import paused_run


def test_the_cli_and_the_page_drop_a_task_the_same_way(fake_llm: FakeLLM, repo: Path) -> None:
    script_team(fake_llm)
    run_id = paused_run(fake_llm, repo)
    before = [(t.id, t.title) for t in run_board.show_board(run_id, repo).tasks]
    assert before == [("r1t1", "Add divide"), ("r1t2", "Draw a logo"), ("r1test", "Test the change")]

    assert approval.drop_task(repo, run_id, "r1t2") == ("dropped r1t2", False)
    after = run_board.show_board(run_id, repo)
    assert [t.id for t in after.tasks] == ["r1t1", "r1test"] and after.waiting
    # The last code task cannot go: the same line from the edit the CLI makes (a run prefix, as typed there).
    line = "the edited plan has no code task left (answer with at least one task)"
    with pytest.raises(PlanEditError, match=r"no code task left"):
        run_board.drop_task(run_id[:8], repo, "r1t1")
    assert approval.drop_task(repo, run_id, "r1t1") == (line, True)
    assert [t.id for t in run_board.show_board(run_id, repo).tasks] == ["r1t1", "r1test"]

    with TraceStore.for_workspace(repo) as trace:
        edits = [e.data for e in trace.timeline(run_id) if e.kind == "plan_edited"]
    assert [(e["dropped"], e["tasks"]) for e in edits] == [(["r1t2"], ["r1t1", "r1test"])]


def test_an_unknown_task_is_refused_in_the_same_line_by_both(fake_llm: FakeLLM, repo: Path) -> None:
    script_team(fake_llm)
    run_id = paused_run(fake_llm, repo)
    line = "unknown task id 'r9t9' (the plan has r1t1, r1t2, r1test)"
    with pytest.raises(PlanEditError) as refused:
        run_board.drop_task(run_id, repo, "r9t9")
    assert str(refused.value) == line
    assert approval.drop_task(repo, run_id, "r9t9") == (line, True)
    assert [t.id for t in run_board.show_board(run_id, repo).tasks] == ["r1t1", "r1t2", "r1test"]
