"""The cost of a solved task in the SIMULATED comparison: what the server read past its KV cache and wrote, per
request over real HTTP, summed per attempt and divided by the cell's solves, with the wall time at the profile's
CPU rates."""

from __future__ import annotations

from collections import Counter
from typing import Any

import httpx
import pytest

from slmcode.eval.attempt import Attempt
from slmcode.eval.sim.compare import Cell, Outcome, run_one
from slmcode.eval.sim.profile import load_profile
from slmcode.eval.sim.server import SimServer
from slmcode.eval.sim.table import profile_summary, render
from slmcode.eval.suite import load_suite

TASK = next(t for t in load_suite() if t.id == "js-sum-range")
TOOLS = [{"type": "function", "function": {"name": "ws_read", "description": "read a file " * 50}}]
CALL = {"id": "c1", "type": "function", "function": {"name": "ws_read", "arguments": '{"path": "math.js"}'}}


def post(sim: SimServer, messages: list[dict[str, Any]], tools: list[dict[str, Any]] = TOOLS) -> None:
    body = {"model": sim.profile.model, "messages": messages, "tools": tools}
    assert httpx.post(f"{sim.url}/chat/completions", json=body, timeout=30).status_code == 200


def test_a_conversation_that_only_appends_reads_its_shared_prefix_once() -> None:
    opening = [{"role": "system", "content": "S" * 4000}, {"role": "user", "content": "fix sumRange " * 100}]
    appended = [
        {"role": "assistant", "content": "", "tool_calls": [CALL]},
        {"role": "tool", "tool_call_id": "c1", "content": "r" * 2000},
    ]
    with SimServer(TASK, load_profile("perfect")) as sim:
        post(sim, opening)
        first = sim.meter.cost.read_tokens
        # Another conversation in between (another task's worker) keeps its own place in the cache.
        post(sim, [opening[0], {"role": "user", "content": "another task " * 100}])
        between = sim.meter.cost.read_tokens
        post(sim, opening + appended)
        cost = sim.meter.cost
    assert first >= 1000 + 300  # the system prompt, the task and the tool schemas were all read
    assert between - first == first  # another conversation is read whole: it has its own place in the cache
    grown = cost.read_tokens - between
    assert 500 <= grown <= 560  # only the appended call and its 2,000-character result, not the 1,300 before
    assert cost.requests == 3 and cost.prompt_tokens - cost.read_tokens >= first


def test_other_tools_offered_mid_conversation_are_read_again_from_the_tools_on() -> None:
    opening = [{"role": "system", "content": "S" * 4000}, {"role": "user", "content": "fix sumRange " * 100}]
    with SimServer(TASK, load_profile("perfect")) as sim:
        post(sim, opening)
        first = sim.meter.cost.read_tokens
        post(sim, opening, tools=[{"type": "function", "function": {"name": "ws_edit"}}])
        again = sim.meter.cost.read_tokens - first
    assert 300 <= again < first - 900  # the task and the new schemas again, never the system prompt before them


def outcome(cell: str, seed: int, solved: bool, prompt: int, read: int, seconds: float | None) -> Outcome:
    attempt = Attempt(TASK.id, "javascript", "bugfix", cell, solved, None if solved else "tests_failed")
    cost = {"requests": 10, "prompt_tokens": prompt, "read_tokens": read, "answer_tokens": 100}
    cost |= {"cpu_seconds": seconds, "rates": [22.44, 12.65]}
    return Outcome("7b", Cell(cell), TASK.id, seed, attempt, Counter(), cost)


def test_a_cell_is_charged_every_attempt_per_solve_and_one_with_no_solve_says_so() -> None:
    rows = [
        outcome("harness", 0, True, 3000, 1000, 60.0),
        outcome("harness", 1, False, 5000, 2000, 120.0),  # a failed attempt's tokens are part of a solve's cost
        outcome("baseline", 0, False, 800, 800, 40.0),
        outcome("baseline", 1, False, 900, 900, 45.0),
    ]
    summary = profile_summary(rows, "7b")
    harness, plain = summary["harness"]["per_solve"], summary["plain loop"]["per_solve"]
    assert (harness["prompt_tokens"], harness["read_tokens"], harness["requests"]) == (8000, 3000, 20)
    assert harness["cpu_minutes"] == pytest.approx(3.0)
    assert plain["solved"] == 0 and plain["prompt_tokens"] is None and plain["cpu_minutes"] is None
    table = render({"7b": summary})
    assert "SIMULATED cost per solved task" in table and "22.44 prompt / 12.65 answer tokens per s" in table
    cost_rows = table.split("SIMULATED cost per solved task")[1].splitlines()
    plain_row = next(line for line in cost_rows if line.startswith("plain loop"))
    assert "0 (no figure)" in plain_row and plain_row.split()[-1] == "-"


@pytest.mark.slow
def test_an_attempt_costs_what_its_server_read_and_wrote_at_the_profile_rates(on_path: None) -> None:
    done = run_one(TASK, load_profile("perfect"), 0, Cell("harness"), timeout=600)
    cost = done.cost
    assert done.attempt.solved and cost["requests"] >= 5
    # The harness's stable prefix (system prompt, tool schemas, earlier turns) is read once per conversation.
    assert cost["read_tokens"] < cost["prompt_tokens"]
    assert cost["cpu_seconds"] == pytest.approx(cost["read_tokens"] / 22.44 + cost["answer_tokens"] / 12.65)
