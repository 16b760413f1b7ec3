"""The worker's tool results on a small window, through the real compiled graph and the scripted server."""

from __future__ import annotations

from pathlib import Path

import pytest

from slmcode import api
from slmcode.nodes.prompts import SYSTEM
from tests.fake_llm import FakeLLM, Reply, tool_call
from tests.graph.scenario import script_planning

TABLE = "".join(f"RATE_{n} = {n} * 0.0125  # rate for band {n}\n" for n in range(2000))


@pytest.fixture
def repo(repo: Path) -> Path:
    """The shared calculator repository (tests/conftest.py) with a rates table to read."""
    (repo / "calc" / "rates.py").write_text(TABLE)
    return repo


def tool_results(fake: FakeLLM) -> dict[str, str]:
    """The content of every tool result the worker's last request carried, by tool name."""
    worker = [r for r in fake.requests if r["messages"][0]["content"].startswith(SYSTEM["worker"])]
    messages = worker[-1]["messages"]
    names = {c["id"]: c["function"]["name"] for m in messages for c in m.get("tool_calls") or []}
    return {names[m["tool_call_id"]]: m["content"] for m in messages if m["role"] == "tool"}


def test_on_an_8k_model_big_results_are_cut_to_the_window_and_the_full_output_is_kept(
    fake_llm: FakeLLM, repo: Path
) -> None:
    script_planning(fake_llm)
    fake_llm.on(
        SYSTEM["worker"],
        Reply(tool_calls=[tool_call("ws_read", path="calc/rates.py")]),
        Reply(tool_calls=[tool_call("ws_search", pattern="band 1", path="calc")]),
        Reply(content="Looked at the rates."),
    )
    fake_llm.on(SYSTEM["corrector"], Reply(content="Nothing to change."))
    fake_llm.on(SYSTEM["tester"], Reply(content="Nothing to test."))
    api.run("Look at the rates table", repo, base_url=fake_llm.url, model="qwen2.5-coder:7b", request_retries=0)
    results = tool_results(fake_llm)
    # An 8K window keeps five results whole with room to spare: one result gets ~1 KB, not the 6,000-byte default.
    read = results["ws_read"]
    assert len(read.encode()) <= 2000 and read.startswith("1\tRATE_0 = 0 * 0.0125")
    last = int(read.splitlines()[-2].split("\t")[0])
    assert read.splitlines()[-1] == f"[output cut at line {last}; continue with offset={last + 1}]"
    # The search found 111 lines; the context gets a preview and the path of the whole output.
    search = results["ws_search"]
    assert len(search.encode()) <= 2000 and "calc/rates.py:2: RATE_1 = 1" in search
    path = next(word for word in search.split() if word.startswith(".slmcode/scratch/")).rstrip(";")
    full = (repo / path).read_text()
    assert full.count("\n") + 1 == 50 + 1  # the tool's own limit of 50 matches, and its note, all kept


def test_a_server_error_on_a_worker_request_stops_the_run_with_one_clear_error(fake_llm: FakeLLM, repo: Path) -> None:
    from slmcode.errors import EndpointError

    script_planning(fake_llm)
    fake_llm.on(SYSTEM["worker"], Reply(content="out of memory", status=500))
    with pytest.raises(EndpointError, match=r"the model server failed a worker request \(500\)"):
        api.run("Look at the rates table", repo, base_url=fake_llm.url, model="qwen2.5-coder:7b", request_retries=0)
