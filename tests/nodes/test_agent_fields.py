"""An agent block's `tools` and `budget_share` change what its phase really does: the tools its requests offer
and run, and the share of the window its pack gets. Through the real graph and the scripted server, with the
worker's agent replaced by a project block."""

from __future__ import annotations

from pathlib import Path

from slmcode import api
from slmcode.compact.toolfit import opening_room
from slmcode.config import load_settings
from slmcode.nodes.prompts import SYSTEM
from slmcode.tools.settings import ToolSettings
from tests.fake_llm import FakeLLM, Reply, tool_call
from tests.graph.scenario import MULTIPLY_END, script_planning

MODEL = "qwen2.5-coder:7b"
DIVIDE = "\n\ndef divide(a: float, b: float) -> float:\n    return a / b\n"


def worker_agent(repo: Path, fields: str) -> None:
    (repo / ".slmcode" / "blocks" / "worker.yaml").write_text(
        f"api_version: blocks/v1\nkind: agent\nid: worker\nrole: worker\n{fields}"
    )


def worker_requests(fake: FakeLLM) -> list[dict]:
    return [r for r in fake.requests if r["messages"][0]["content"].startswith(SYSTEM["worker"])]


def script_worker(fake: FakeLLM) -> None:
    script_planning(fake)
    fake.on(
        SYSTEM["worker"],
        Reply(tool_calls=[tool_call("ws_read", path="calc/ops.py")]),
        Reply(tool_calls=[tool_call("ws_shell", command="python -m pytest -q")]),
        Reply(
            tool_calls=[tool_call("ws_edit", path="calc/ops.py", old_str=MULTIPLY_END, new_str=MULTIPLY_END + DIVIDE)]
        ),
        # names the focus file it left alone, as the completeness gate asks (slmcode.gates)
        Reply(content="Added divide; tests/test_ops.py is the tester's."),
    )
    fake.on(SYSTEM["tester"], Reply(content="Nothing to test."))


def test_an_agents_tool_list_limits_the_tools_offered_and_run(fake_llm: FakeLLM, repo: Path) -> None:
    worker_agent(repo, "tools: [ws_read, ws_edit]\n")
    script_worker(fake_llm)
    api.run("Add a divide operation", repo, base_url=fake_llm.url, model=MODEL, request_retries=0)
    requests = worker_requests(fake_llm)
    assert all(sorted(t["function"]["name"] for t in r["tools"]) == ["ws_edit", "ws_read"] for r in requests)
    # The shell call the model made anyway was not run: it came back as an unknown tool.
    shell = [m["content"] for m in requests[-1]["messages"] if m["role"] == "tool"][1]
    assert shell.startswith("Error: ws_shell is not a valid tool, try one of [ws_read, ws_edit]")
    assert "def divide" in (repo / "calc" / "ops.py").read_text()


def test_an_agents_budget_share_scales_its_pack(fake_llm: FakeLLM, repo: Path) -> None:
    settings = load_settings(repo, flags={"model": MODEL}).settings
    whole = opening_room(settings, ToolSettings.of(settings), "worker", repo).room.pack
    tenth = settings.model_copy(update={"context_role_budget": {**settings.context_role_budget, "worker": 0.1}})
    expected = opening_room(tenth, ToolSettings.of(tenth), "worker", repo).room.pack
    assert expected < whole  # so the figure below can tell the two apart
    worker_agent(repo, "budget_share: 0.1\n")
    script_worker(fake_llm)
    events: list[dict] = []
    api.run(
        "Add a divide operation", repo, base_url=fake_llm.url, model=MODEL, request_retries=0, on_event=events.append
    )
    packs = [e for e in events if e["kind"] == "pack" and e["role"] == "worker"]
    assert packs and all(e["budget"] == expected and e["tokens"] <= expected for e in packs)
