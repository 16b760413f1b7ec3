"""The compaction circuit breaker, in a live worker: after compact_max_failures consecutive failures of the
compactor model the ladder stops asking it for the rest of the branch. Through the real graph and the scripted
server, whose compactor answers every request with a 500."""

from __future__ import annotations

from pathlib import Path

from slmcode import api
from slmcode.compact.prompts import COMPACTOR_SYSTEM
from slmcode.nodes.prompts import SYSTEM
from tests.fake_llm import FakeLLM, Reply, tool_call
from tests.graph.scenario import script_planning

TURNS = 12


def notes(n: int) -> str:
    """~2,000 tokens of thinking aloud: five such rounds in the keep window are more than an 8K window's room,
    and no elision shortens what the model itself said."""
    return "".join(f"Step {n}.{k}: RATE_{k} = {k} * 17 looks right for band {k} of table {n}.\n" for k in range(150))


def test_three_compactor_failures_open_the_breaker_for_the_rest_of_the_task(fake_llm: FakeLLM, repo: Path) -> None:
    script_planning(fake_llm)
    fake_llm.on(
        SYSTEM["worker"],
        *[Reply(content=notes(n), tool_calls=[tool_call("ws_read", path="calc/ops.py")]) for n in range(TURNS)],
        Reply(content="The rates look right."),
    )
    fake_llm.on(
        COMPACTOR_SYSTEM[:60],
        Reply(content="overloaded", status=500),
        where=lambda request: str(request["messages"][0]["content"]),
    )
    fake_llm.on(SYSTEM["corrector"], Reply(content="Nothing to change."))
    fake_llm.on(SYSTEM["tester"], Reply(content="Nothing to test."))
    # loop_guard off: the same read twelve times is the point here, and the guard would stop it at the fifth.
    api.run(
        "Check the rates", repo, base_url=fake_llm.url, model="qwen2.5-coder:7b", request_retries=0, loop_guard="off"
    )
    compactor = [r for r in fake_llm.requests if str(r["messages"][0]["content"]).startswith(COMPACTOR_SYSTEM[:60])]
    worker = [r for r in fake_llm.requests if str(r["messages"][0]["content"]).startswith(SYSTEM["worker"])]
    assert len(worker) == TURNS + 2  # and one nudge (nodes/focus.py): the answer left the focus files unchanged
    # Requests after the third failure went on without the compactor (the deterministic rungs fit them).
    assert len(compactor) == 3
