"""The user's give_up to the escalation question ends the run with what it has: no tester, QA, new plan or new
task goes back to the model, and the outcome says the user gave up."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from slmcode import api
from slmcode.nodes.prompts import SYSTEM
from tests.fake_llm import FakeLLM, Reply, system_text
from tests.graph.scenario import script_buggy_worker_then_fix, script_planning


def test_give_up_ends_the_run_and_nothing_more_goes_to_the_model(fake_llm: FakeLLM, repo: Path) -> None:
    script_planning(fake_llm)
    script_buggy_worker_then_fix(fake_llm, fix=False)
    fake_llm.on(SYSTEM["tester"], Reply(content="Nothing to test."))
    asked: list[int] = []

    def answer(question: dict[str, Any]) -> Any:
        if question.get("kind") == "escalate":
            asked.append(len(fake_llm.requests))  # how many requests had gone out when the user answered
            return "give_up"
        return api.auto_answer(question)

    result = api.run(
        "Add a divide operation",
        repo,
        base_url=fake_llm.url,
        model="qwen2.5-coder:7b",
        request_retries=0,
        max_retries=0,
        answer=answer,
    )
    assert len(asked) == 1
    after = [system_text(r) for r in fake_llm.requests[asked[0] :]]
    assert after == [], [text[:60] for text in after]  # not the tester, QA, the planner or the escalate role
    assert not result.ok
    assert "you gave up on r1t1" in result.outcome
    assert {t.id for t in result.tasks} == {"r1t1", "r1test"}  # no new plan, no new task


def test_the_question_shows_a_note_repeated_by_each_review_once(fake_llm: FakeLLM, repo: Path) -> None:
    """Three rejections for the same failing test were three copies of one pytest failure on the user's screen."""
    script_planning(fake_llm)
    script_buggy_worker_then_fix(fake_llm, fix=False)
    fake_llm.on(SYSTEM["tester"], Reply(content="Nothing to test."))
    questions: list[str] = []

    def answer(question: dict[str, Any]) -> Any:
        if question.get("kind") == "escalate":
            questions.append(question["question"])
            return "give_up"
        return api.auto_answer(question)

    api.run("Add a divide operation", repo, base_url=fake_llm.url, model="qwen2.5-coder:7b", answer=answer)
    notes = questions[0].split("Last review notes:\n")[1].split("\n\nFailed checks:")[0].splitlines()
    assert len(notes) == len(set(n.split(" (the same note")[0] for n in notes)), notes
    assert notes[0].endswith("times)"), notes  # one line, counted
