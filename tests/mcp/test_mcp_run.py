"""A scripted run whose worker calls an MCP tool of the test server (stdio, in the sandbox) and reads its
result; the tools an agent lists are the ones offered, at most mcp_max_tools; a big result is offloaded."""

from __future__ import annotations

from pathlib import Path

from slmcode import api
from slmcode.nodes.prompts import SYSTEM
from slmcode.store.trace import TraceStore
from tests.fake_llm import FakeLLM, Reply, tool_call
from tests.graph.scenario import script_buggy_worker_then_fix, script_planning
from tests.mcp.conftest import stdio_settings, write_agent, write_config


def run(fake: FakeLLM, repo: Path, **settings: object) -> tuple[api.RunResult, list[dict]]:
    events: list[dict] = []
    result = api.run(
        "Add a divide operation",
        repo,
        base_url=fake.url,
        model="qwen2.5-coder:7b",
        on_event=events.append,
        request_retries=0,
        **settings,
    )
    return result, events


def worker_requests(fake: FakeLLM) -> list[dict]:
    return [r for r in fake.requests if r["messages"][0]["content"].startswith(SYSTEM["worker"])]


def tool_results(request: dict, name: str) -> list[str]:
    return [
        m["content"]
        for m in request["messages"]
        if m["role"] == "tool"
        and m.get("name", name) == name
        and any(
            c["id"] == m["tool_call_id"] and c["function"]["name"] == name
            for a in request["messages"]
            if a["role"] == "assistant"
            for c in a.get("tool_calls") or []
        )
    ]


def offered(request: dict) -> list[str]:
    return [t["function"]["name"] for t in request.get("tools", [])]


def test_the_worker_calls_a_listed_mcp_tool_and_reads_its_result(fake_llm: FakeLLM, repo: Path) -> None:
    write_config(repo, **stdio_settings(mcp_max_tools=2))
    write_agent(repo, "worker", ["mcp__calc__add", "mcp__calc__shout", "mcp__calc__big"])
    script_planning(fake_llm)
    fake_llm.on(SYSTEM["worker"], Reply(tool_calls=[tool_call("mcp__calc__add", a=2, b=40)]), times=1)
    script_buggy_worker_then_fix(fake_llm)
    result, events = run(fake_llm, repo)
    assert result.outcome == "done", result.outcome
    requests = worker_requests(fake_llm)
    # Listed first, capped at two: add and shout are offered, big is not; the workspace tools stay whole.
    assert [n for n in offered(requests[0]) if n.startswith("mcp__")] == ["mcp__calc__add", "mcp__calc__shout"]
    assert {"ws_read", "ws_edit", "ws_write"} <= set(offered(requests[0]))
    assert tool_results(requests[1], "mcp__calc__add") == ["42"]
    assert any(e["kind"] == "tool" and e["name"] == "mcp__calc__add" and e["ok"] for e in events)
    timeline = TraceStore.for_workspace(repo).timeline(result.run_id)
    calls = [e.data for e in timeline if e.kind == "tool_call" and e.data["name"].startswith("mcp__")]
    assert [(c["name"], c["ok"], c["summary"]) for c in calls] == [("mcp__calc__add", True, "42")]


def test_an_agent_that_lists_no_mcp_tool_is_offered_none(fake_llm: FakeLLM, repo: Path) -> None:
    write_config(repo, **stdio_settings())
    script_planning(fake_llm)
    script_buggy_worker_then_fix(fake_llm)
    run(fake_llm, repo)
    assert not [n for r in fake_llm.requests for n in offered(r) if n.startswith("mcp__")]
    assert not (repo / ".slmcode" / "mcp").exists()  # no server was even started


def test_tool_errors_and_big_results_reach_the_model_like_any_tool_result(fake_llm: FakeLLM, repo: Path) -> None:
    write_config(repo, **stdio_settings())
    write_agent(repo, "worker", ["mcp__calc__*"], mcp_max_tools=6)
    script_planning(fake_llm)
    fake_llm.on(
        SYSTEM["worker"],
        Reply(tool_calls=[tool_call("mcp__calc__fail", reason="the disk is on fire")]),
        Reply(tool_calls=[tool_call("mcp__calc__add", a="two")]),
        Reply(tool_calls=[tool_call("mcp__calc__big", lines=3000)]),
        times=3,
    )
    script_buggy_worker_then_fix(fake_llm)
    result, _ = run(fake_llm, repo)
    last = worker_requests(fake_llm)[3]
    failed = [m for m in last["messages"] if m["role"] == "tool"]
    assert failed[0]["content"].startswith("Error:") and "the disk is on fire" in failed[0]["content"]
    assert failed[1]["content"].startswith("Error: bad arguments for mcp__calc__add")
    big = failed[2]["content"]
    assert len(big) < 20_000 and ".slmcode/scratch/" in big  # offloaded: a preview and where the rest is
    assert result.outcome == "done", result.outcome
