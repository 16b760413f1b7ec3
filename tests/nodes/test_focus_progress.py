"""Multi-file work that finishes, through the real graph and the scripted server: a model working
through four focus files runs past its turn limit (30 for qwen2.5-coder:7b) while it keeps finishing files, and the
loop guard leaves it alone; a "done" that leaves focus files unchanged is sent back naming them, once per file done;
a partial patch reaches the corrector with the files still unchanged named."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from slmcode import api
from slmcode.nodes.focus import last_done_turn, turn_limit
from slmcode.nodes.prompts import CORRECT_MISSING, FOCUS_LEFT, LOOP_STOP, SYSTEM, TURN_LIMIT
from slmcode.runner import Event
from slmcode.state import Task
from tests.fake_llm import FakeLLM, Reply, tool_call
from tests.graph.scenario import script_planning
from tests.snapshot import assert_snapshot

FOUR = {  # focus file -> its first line, unique in the file: each edit adds a comment under it
    "calc/__init__.py": '"""A tiny calculator: the example repository slmcode\'s README runs on."""\n',
    "calc/cli.py": '"""Command line: `python -m calc.cli add 2 3`."""\n',
    "calc/ops.py": '"""Arithmetic operations."""\n',
    "tests/test_ops.py": "from calc import ops\n",
}
TWO = ["calc/ops.py", "tests/test_ops.py"]
LEFT_HEAD = FOCUS_LEFT.split("{", 1)[0]
MISSING_HEAD = CORRECT_MISSING.split("{", 1)[0]


def split_into(fake: FakeLLM, focus: list[str]) -> None:
    """The planning script with one task whose focus files are `focus` (this rule is met before script_planning's)."""
    task = {
        "title": "Touch the files",
        "description": "Add a note under the first line of " + ", ".join(focus),
        "focus_files": focus,
        "criteria": [{"text": "the tests pass", "priority": "must", "verify": "python -m pytest -q"}],
    }
    fake.on(SYSTEM["splitter"], json.dumps({"tasks": [task]}))
    script_planning(fake)


def edit(path: str) -> Reply:
    first = FOUR[path]
    return Reply(tool_calls=[tool_call("ws_edit", path=path, old_str=first, new_str=first + "# noted\n")])


def read(path: str, **more: Any) -> Reply:
    return Reply(tool_calls=[tool_call("ws_read", path=path, **more)])


def one_file(n: int, path: str) -> list[Reply]:
    """Eight turns that finish one file, as a small model on a large repository does: it searches and lists before
    it finds the file, reads it twice, runs the tests twice and then edits it. Over the four files the same test
    command runs eight times: the guard counts repeats from the latest file change, so it never stops this."""
    return [
        Reply(tool_calls=[tool_call("ws_search", pattern=f"first line {n}")]),
        Reply(tool_calls=[tool_call("ws_list", path=".")]),
        read(path),
        read(path, offset=2),
        Reply(tool_calls=[tool_call("ws_shell", command="python -m pytest -q")]),
        Reply(tool_calls=[tool_call("ws_shell", command="python -m pytest -q")]),
        Reply(tool_calls=[tool_call("ws_list", path="calc")]),
        edit(path),
    ]


def run(fake: FakeLLM, repo: Path, focus: list[str], *worker: Reply, **settings: Any) -> tuple[api.RunResult, list]:
    split_into(fake, focus)
    fake.on(SYSTEM["worker"], *worker)
    fake.on(SYSTEM["corrector"], Reply(content="I cannot fix it."))
    fake.on(SYSTEM["tester"], Reply(content="Nothing to test."))
    events: list[Event] = []
    result = api.run(
        "Add a note to the files",
        repo,
        base_url=fake.url,
        model="qwen2.5-coder:7b",
        request_retries=0,
        max_retries=settings.pop("max_retries", 0),
        on_event=events.append,
        **settings,
    )
    return result, events


def requests_of(fake: FakeLLM, role: str) -> list[dict[str, Any]]:
    return [r for r in fake.requests if str(r["messages"][0]["content"]).startswith(SYSTEM[role])]


def texts(request: dict[str, Any], role: str) -> list[str]:
    return [str(m["content"]) for m in request["messages"] if m["role"] == role]


@pytest.mark.slow
def test_a_model_finishing_four_focus_files_runs_past_its_turn_limit_and_is_not_stopped(
    fake_llm: FakeLLM, repo: Path
) -> None:
    script = [reply for n, path in enumerate(FOUR) for reply in one_file(n, path)]
    result, events = run(fake_llm, repo, list(FOUR), *script, Reply(content="Added a note to the four files."))
    requests = requests_of(fake_llm, "worker")
    assert len(script) == 32  # past qwen2.5-coder's 30 turns: the last file is done at turn 32
    assert len(requests) == len(script) + 1  # every call ran, then the final answer
    results = texts(requests[-1], "tool")
    assert not [r for r in results if r.startswith((TURN_LIMIT, LOOP_STOP.split("{", 1)[0]))]
    assert not [e for e in events if e["kind"] == "loop"]
    assert all("# noted\n" in (repo / path).read_text() for path in FOUR)
    assert "done" in result.outcome  # reviewed as done (its check passes on the unchanged tree too: not a fail)


@pytest.mark.slow
def test_a_done_that_leaves_a_focus_file_unchanged_is_sent_back_naming_it(fake_llm: FakeLLM, repo: Path) -> None:
    worker = [read("calc/ops.py"), edit("calc/ops.py"), Reply(content="Done.")]
    rest = [read("tests/test_ops.py"), edit("tests/test_ops.py"), Reply(content="Done: both files.")]
    result, _ = run(fake_llm, repo, TWO, *worker, *rest)
    requests = requests_of(fake_llm, "worker")
    assert len(requests) == 6
    nudge = texts(requests[3], "user")[-1]
    assert nudge == FOCUS_LEFT.format(files="tests/test_ops.py")
    assert "# noted\n" in (repo / "tests/test_ops.py").read_text()
    assert "done" in result.outcome and not requests_of(fake_llm, "corrector")


@pytest.mark.slow
def test_with_the_focus_lever_ablated_a_premature_done_goes_to_review(fake_llm: FakeLLM, repo: Path) -> None:
    worker = [read("calc/ops.py"), edit("calc/ops.py"), Reply(content="Done.")]
    result, _ = run(fake_llm, repo, TWO, *worker, ablate=["focus"])
    assert len(requests_of(fake_llm, "worker")) == 3  # no nudge: the "done" is taken at its word
    assert "# noted\n" not in (repo / "tests/test_ops.py").read_text()
    assert result.outcome.startswith("failed")


@pytest.mark.slow
def test_a_done_with_no_progress_since_the_nudge_goes_to_review_and_the_corrector_is_told_what_is_missing(
    fake_llm: FakeLLM, repo: Path
) -> None:
    worker = [read("calc/ops.py"), edit("calc/ops.py"), Reply(content="Done."), Reply(content="Done, really.")]
    result, _ = run(fake_llm, repo, TWO, *worker, max_retries=1)
    corrector = requests_of(fake_llm, "corrector")[0]
    opening = texts(corrector, "user")[-1]
    assert CORRECT_MISSING.format(files="tests/test_ops.py") in opening
    workers = requests_of(fake_llm, "worker")
    assert len(workers) == 4  # one nudge: the second "done" made no progress since
    assert sum(t.startswith(LEFT_HEAD) for t in texts(workers[-1], "user")) == 1
    assert not result.ok


def _answer(n: int, name: str, **args: str) -> AIMessage:
    return AIMessage("", tool_calls=[{"id": f"c{n}", "name": name, "args": args}])


def _done(n: int, path: str) -> ToolMessage:
    return ToolMessage(f"edited {path}", tool_call_id=f"c{n}", name="ws_edit", artifact={"path": path})


def test_the_turn_limit_counts_from_the_latest_focus_file_done_within_its_cap() -> None:
    task = Task(id="t", title="t", focus_files=["a.py", "b.py", "./c.py"], files_changed=["a.py"])
    messages = [
        HumanMessage("Do this task now, with the tools."),
        _answer(1, "ws_edit", path="a.py"),
        _done(1, "a.py"),  # done by an earlier attempt: no progress of this conversation
        _answer(2, "ws_read", path="b.py"),
        ToolMessage("1\tb", tool_call_id="c2", name="ws_read", artifact={"path": "b.py"}),
        _answer(3, "ws_edit", path="c.py"),
        _done(3, "c.py"),
    ]
    assert last_done_turn(task, messages) == 3
    assert turn_limit(30, 3) == 33
    assert turn_limit(30, 0) == 30
    assert turn_limit(30, 75) == 90  # never past three times the limit


def test_the_focus_texts() -> None:
    assert_snapshot("focus.txt", f"left: {FOCUS_LEFT}\ncorrector: {CORRECT_MISSING}")
