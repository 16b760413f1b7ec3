"""The loop guard in a live worker, through the real graph and the scripted server: a model that repeats one call
is told so on the third and stopped as a `loop` on the fifth, long before its turn limit (30 for
qwen2.5-coder:7b); a model that reads file after file is left alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, ToolMessage

from slmcode import api
from slmcode.eval.harness import trace_figures
from slmcode.nodes.loop_guard import stop_reason, tally
from slmcode.nodes.prompts import LOOP_CRITERION, LOOP_STEER, LOOP_STOP, SYSTEM
from slmcode.runner import Event
from tests.fake_llm import FakeLLM, Reply, tool_call
from tests.graph.scenario import script_planning
from tests.snapshot import assert_snapshot

STEER_HEAD = LOOP_STEER.split("{", 1)[0]


def worker_requests(fake: FakeLLM) -> list[dict[str, Any]]:
    return [r for r in fake.requests if str(r["messages"][0]["content"]).startswith(SYSTEM["worker"])]


def last_tool_result(request: dict[str, Any]) -> str:
    return next(m["content"] for m in reversed(request["messages"]) if m["role"] == "tool")


def run(fake: FakeLLM, repo: Path, *worker: Reply, **settings: Any) -> tuple[api.RunResult, list[Event]]:
    script_planning(fake)
    fake.on(SYSTEM["worker"], *worker)
    fake.on(SYSTEM["corrector"], Reply(content="I cannot fix it."))
    fake.on(SYSTEM["tester"], Reply(content="Nothing to test."))
    events: list[Event] = []
    result = api.run(
        "Add divide",
        repo,
        base_url=fake.url,
        model="qwen2.5-coder:7b",
        request_retries=0,
        max_retries=0,
        on_event=events.append,
        **settings,
    )
    return result, events


def loop_rows(events: list[Event]) -> list[Event]:
    return [e for e in events if e["kind"] == "verdict" and e.get("gate") == "loop"]


@pytest.mark.slow
def test_the_same_call_is_steered_on_the_third_time_and_stopped_as_a_loop_on_the_fifth(
    fake_llm: FakeLLM, repo: Path
) -> None:
    result, events = run(fake_llm, repo, Reply(tool_calls=[tool_call("ws_read", path="calc/ops.py")]))
    requests = worker_requests(fake_llm)
    assert len(requests) == 5  # the fifth identical call is never run: the task stops, not at turn 30
    # Requests 2 and 3 carry the first two results as the tool gave them; request 4 the third, with the steer.
    assert STEER_HEAD not in last_tool_result(requests[2])
    third = last_tool_result(requests[3])
    assert LOOP_STEER.format(times=2, learned='1\t"""Arithmetic operations."""') in third
    assert [e["status"] for e in loop_rows(events)] == ["FAILED"]
    rejected = [e for e in events if e["kind"] == "task" and e.get("status") == "rejected"]
    assert rejected and LOOP_CRITERION in " ".join(rejected[0]["notes"])
    assert any("stopped as a loop (the same tool call 5 times)" in line for line in result.work_log)
    assert not result.ok


@pytest.mark.slow
def test_calls_with_no_new_file_read_stop_as_a_loop_after_loop_guard_calls(fake_llm: FakeLLM, repo: Path) -> None:
    searches = [Reply(tool_calls=[tool_call("ws_search", pattern=f"band {n}")]) for n in range(10)]
    result, events = run(fake_llm, repo, *searches, loop_guard_calls=4)
    assert len(worker_requests(fake_llm)) == 4
    assert any("4 tool calls in a row with no new file read and no file changed" in line for line in result.work_log)
    assert len(loop_rows(events)) == 1
    # The trace keeps the stop, so `slmcode eval` labels the attempt `loop` though no call was repeated.
    figures = trace_figures(repo, result.run_id)
    assert figures.signals.loop_stops == 1 and figures.signals.longest_repeat == 1


@pytest.mark.slow
def test_a_model_reading_file_after_file_is_not_stopped(fake_llm: FakeLLM, repo: Path) -> None:
    paths = [
        "calc/ops.py",
        "calc/cli.py",
        "tests/test_ops.py",
        "calc/__init__.py",
        "pyproject.toml",
        "AGENTS.md",
        "calc/ops.py",
        "calc/cli.py",
    ]  # eight calls, more than loop_guard_calls' default of 8 would allow idle
    reads = [Reply(tool_calls=[tool_call("ws_read", path=p)]) for p in paths]
    result, events = run(fake_llm, repo, *reads, Reply(content="Read them all."))
    requests = worker_requests(fake_llm)
    assert len(requests) == len(paths) + 2  # and one nudge: "Read them all." left both focus files unchanged
    assert all(STEER_HEAD not in m["content"] for m in requests[-1]["messages"] if m["role"] == "tool")
    assert loop_rows(events) == [] and not any("loop" in line for line in result.work_log)


@pytest.mark.slow
def test_loop_guard_off_lets_the_model_repeat_to_its_turn_limit(fake_llm: FakeLLM, repo: Path) -> None:
    _, events = run(fake_llm, repo, Reply(tool_calls=[tool_call("ws_read", path="calc/ops.py")]), loop_guard="off")
    requests = worker_requests(fake_llm)
    assert len(requests) == 30  # qwen2.5-coder's max_turns
    assert all(STEER_HEAD not in m["content"] for m in requests[-1]["messages"] if m["role"] == "tool")
    assert loop_rows(events) == []


def _conversation(calls: list[tuple[str, dict[str, str], str]]) -> list[AIMessage | ToolMessage]:
    messages: list[AIMessage | ToolMessage] = []
    for n, (name, args, result) in enumerate(calls):
        messages.append(AIMessage("", tool_calls=[{"id": f"c{n}", "name": name, "args": args}]))
        if result:
            messages.append(
                ToolMessage(
                    result, tool_call_id=f"c{n}", name=name, artifact={"path": args["path"]} if "path" in args else None
                )
            )
    return messages


def test_the_counts_come_from_the_stored_conversation_and_an_edit_resets_them() -> None:
    """A resumed step sees only the stored conversation: the same conversation gives the same verdict, and an
    edit in between makes an identical test run new again (it can now learn something)."""
    run_tests = ("ws_shell", {"command": "python -m pytest -q"}, "1 failed")
    edit = ("ws_edit", {"path": "calc/ops.py", "old_str": "a", "new_str": "b"}, "Edited calc/ops.py")
    looping = _conversation([run_tests] * 4 + [(*run_tests[:2], "")])
    assert stop_reason(looping, True, 8) == "the same tool call 5 times"
    assert stop_reason(list(looping), True, 8) == stop_reason(looping, True, 8)
    assert stop_reason(looping, False, 8) is None
    working = _conversation([run_tests, edit, run_tests, edit, run_tests, edit, run_tests, edit, (*run_tests[:2], "")])
    assert stop_reason(working, True, 8) is None
    assert tally(working).counts["c8"] == 1


def test_the_loop_guard_texts() -> None:
    assert_snapshot("loop_guard.txt", f"steer: {LOOP_STEER}\nstop: {LOOP_STOP}\nrow: {LOOP_CRITERION}\n")
