"""The graph served by `langgraph dev` (langgraph.json at the repository root), driven through langgraph_sdk.

The server is a separate process: it reaches the scripted model (tests/fake_llm, in this process) over
loopback, gets the run's settings only through `context`, and checkpoints the state with its own saver,
so the state's pydantic items go through its serializer and come back as JSON to the client.

Known limit (langgraph 1.2.24, langgraph-api 0.16.7): with LANGGRAPH_STRICT_MSGPACK=true the server blocks
slmcode.state.Task and PRD when it loads a checkpoint, so a resumed run gets dicts: the server runs
graph.copy(update={"checkpointer": ...}), Pregel.copy drops the schema allowlist compile() derived, and the
server reads no allowed_msgpack_modules from langgraph.json. The default, permissive mode works, with a warning.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from slmcode.nodes.prompts import SYSTEM
from slmcode.store.trace import TraceStore
from tests.fake_llm import FakeLLM, system_text
from tests.graph.pipelines import pipeline_block
from tests.graph.scenario import js, make_repo, python_on_path, script_buggy_worker_then_fix, script_planning

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]  # where langgraph.json is
LANGGRAPH = Path(sys.executable).parent / "langgraph"
START_TIMEOUT_S = 120.0  # the server imports the graph on start: ~7 s alone, far more on a busy machine
STOP_TIMEOUT_S = 15.0
QUESTION = {"question": "What should divide(a, 0) do?", "recommended": "raise ZeroDivisionError"}
ANSWER = "return float('inf')"


@dataclass
class Server:
    url: str
    log: Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_up(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    """Poll /ok until the server answers; it answers only once the graph has loaded."""
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"langgraph dev exited with {process.returncode}:\n{log.read_text()[-4000:]}")
        try:
            with urllib.request.urlopen(f"{url}/ok", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.25)
    pytest.fail(f"langgraph dev did not answer within {START_TIMEOUT_S:.0f} s:\n{log.read_text()[-4000:]}")


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop the server and everything it started (its own process group)."""
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=STOP_TIMEOUT_S)


@pytest.fixture
def server(tmp_path: Path, fake_llm: FakeLLM) -> Iterator[Server]:
    if not LANGGRAPH.exists():
        pytest.skip("langgraph-cli[inmem] is not installed (pip install -e '.[dev]')")
    port = free_port()
    env = {
        **os.environ,
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGGRAPH_NO_VERSION_CHECK": "true",
        "PATH": python_on_path(),  # the verify commands' `python -m pytest` must find pytest
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
        # The operator's rules (slmcode/serverpolicy.py): runs only under this test's folder, only this endpoint.
        "SLMCODE_ALLOWED_ROOTS": str(tmp_path / "allowed"),
        "SLMCODE_ALLOWED_BASE_URLS": fake_llm.url,
    }
    log = tmp_path / "langgraph-dev.log"  # outside the project: a file written inside it means a reload
    command = [str(LANGGRAPH), "dev", "--no-browser", "--no-reload", "--port", str(port), "--host", "127.0.0.1"]
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        url = f"http://127.0.0.1:{port}"
        wait_until_up(url, process, log)
        yield Server(url, log)
    finally:
        stop(process)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / "allowed").mkdir(exist_ok=True)
    return make_repo(tmp_path / "allowed")


@pytest.fixture
def client(server: Server) -> Any:
    from langgraph_sdk import get_sync_client

    return get_sync_client(url=server.url, timeout=120)


@pytest.fixture
def thread_id(client: Any) -> Iterator[str]:
    thread_id = client.threads.create()["thread_id"]
    yield thread_id
    # langgraph dev keeps its threads in .langgraph_api/ (cwd) across restarts; langgraph-cli 0.4.40 drops
    # langgraph.json's disable_persistence, so delete ours (its checkpoint writes still stay: upstream).
    client.threads.delete(thread_id)


def stream(client: Any, thread_id: str, **run: Any) -> list[tuple[str, Any]]:
    """One run on the thread, streamed to its end; an error event fails the test with the server's message."""
    parts = [
        (p.event, p.data) for p in client.runs.stream(thread_id, "slmcode", stream_mode=["updates", "custom"], **run)
    ]
    errors = [data for event, data in parts if event == "error"]
    assert not errors, errors
    return parts


def interrupts_in(parts: list[tuple[str, Any]]) -> list[dict[str, Any]]:
    return [i for event, data in parts if event == "updates" for i in data.get("__interrupt__", [])]


def test_a_full_run_through_langgraph_dev_with_a_clarify_interrupt(
    client: Any, thread_id: str, fake_llm: FakeLLM, repo: Path
) -> None:
    # Asked once: the questions wait in the state for the interview node, which the resume re-enters.
    fake_llm.on(
        SYSTEM["clarify"], js({"requirements": ["calc.ops has divide(a, b)"], "questions": [QUESTION]}), times=1
    )
    script_planning(fake_llm)
    script_buggy_worker_then_fix(fake_llm)
    context = {
        "workspace": str(repo),
        "overrides": {
            "base_url": fake_llm.url,
            "model": "qwen2.5-coder:7b",
            "clarify_mode": "ask",
            "request_retries": 0,
        },
    }
    start = {
        "run_id": thread_id,
        "query": "Add a divide operation",
        "workspace": str(repo),
        "phase": "start",
        "rounds": 0,
    }

    first = stream(client, thread_id, input=start, context=context)
    asked = interrupts_in(first)
    assert [i["value"] for i in asked] == [{"kind": "clarify", "questions": [QUESTION]}]
    assert client.threads.get_state(thread_id)["next"] == ["interview"]

    # Answer, and stop again before the first review: the next run must rebuild the tasks (pydantic items)
    # from the server's own checkpoint.
    stream(client, thread_id, command={"resume": [ANSWER]}, context=context, interrupt_before=["reviewer"])
    paused = client.threads.get_state(thread_id)
    assert paused["next"] == ["reviewer"]
    code = next(t for t in paused["values"]["tasks"] if t["kind"] == "code")
    assert code["status"] == "review" and code["verdicts"][0]["status"] == "FAILED", code["verdicts"]

    last = stream(client, thread_id, input=None, context=context)
    assert sum(system_text(r).startswith(SYSTEM["clarify"]) for r in fake_llm.requests) == 1
    final = client.threads.get_state(thread_id)
    values = final["values"]
    assert final["next"] == [] and values["outcome"] == "done", values.get("outcome")
    assert {t["id"]: t["status"] for t in values["tasks"]} == {"r1t1": "done", "r1test": "done"}
    code = next(t for t in values["tasks"] if t["kind"] == "code")
    assert code["attempts"] == 2 and [v["status"] for v in code["verdicts"] if not v.get("gate")] == ["PASSED"]
    assert code["files_changed"] == ["calc/cli.py", "calc/ops.py", "tests/test_ops.py"]
    assert f"{QUESTION['question']} -> {ANSWER}" in values["prd"]["answers"]
    assert values["qa"]["passed"] is True
    assert "return a / b" in (repo / "calc" / "ops.py").read_text()

    # `context` reached the nodes: the model calls went to its base_url with its model, the trace to its workspace.
    assert {r["model"] for r in fake_llm.requests} == {"qwen2.5-coder:7b"}
    phases = [d["phase"] for e, d in last if e == "custom" and d.get("kind") == "phase"]
    assert {"corrector", "tester", "qa"} <= set(phases) and phases[-1] == "learn"
    with TraceStore.for_workspace(repo) as trace:
        kinds = {e.kind for e in trace.timeline(thread_id)}
    assert {"phase", "pack", "tool_call", "verdict"} <= kinds


def run_error(client: Any, thread_id: str, context: dict[str, Any], workspace: str) -> str:
    """The error a run ends with (the client sees it as the stream's error event)."""
    start = {
        "run_id": thread_id,
        "query": "Add a divide operation",
        "workspace": workspace,
        "phase": "start",
        "rounds": 0,
    }
    parts = [
        (p.event, p.data)
        for p in client.runs.stream(thread_id, "slmcode", input=start, context=context, stream_mode=["updates"])
    ]
    errors = [data for event, data in parts if event == "error"]
    assert errors, f"the run was not refused: {parts[-3:]}"
    return str(errors[0])


def post(url: str, body: bytes, headers: dict[str, str]) -> int:
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_the_server_refuses_what_the_operator_did_not_allow(
    server: Server, client: Any, thread_id: str, fake_llm: FakeLLM, repo: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    good = {"base_url": fake_llm.url, "model": "qwen2.5-coder:7b"}
    cases = [
        ({"workspace": str(outside), "overrides": good}, str(outside), "is not under SLMCODE_ALLOWED_ROOTS"),
        ({"workspace": "/etc", "overrides": good}, "/etc", "is not under SLMCODE_ALLOWED_ROOTS"),
        ({"overrides": good}, ".", "must name its workspace"),
        ({"workspace": str(tmp_path / "allowed" / "new"), "overrides": good}, "x", "does not exist"),
        (
            {"workspace": str(repo), "overrides": {**good, "shell_extra_commands": ["bash -c"]}},
            str(repo),
            "may not set shell_extra_commands",
        ),
        (
            {"workspace": str(repo), "overrides": {**good, "sandbox_network": True}},
            str(repo),
            "may not set sandbox_network",
        ),
        ({"workspace": str(repo), "overrides": {**good, "permission": "auto"}}, str(repo), "permission only to"),
        (
            {"workspace": str(repo), "overrides": {**good, "base_url": "http://attacker.example/v1"}},
            str(repo),
            "configured endpoints",
        ),
    ]
    for context, workspace, expected in cases:
        assert expected in run_error(client, thread_id, context, workspace), context
    assert not (tmp_path / "allowed" / "new").exists()  # a refused workspace is never created
    assert fake_llm.requests == []  # nothing reached the model
    # Requests a web page could forge from the user's browser never reach the server's routes.
    runs = f"{server.url}/threads/{thread_id}/runs"
    body = json.dumps({"assistant_id": "slmcode", "input": {}}).encode()
    assert post(runs, body, {"Content-Type": "text/plain"}) == 415
    assert post(runs, body, {"Content-Type": "application/json", "Origin": "https://evil.example"}) == 403
    assert client.runs.list(thread_id) != [] and all(r["status"] == "error" for r in client.runs.list(thread_id))


SHAPED_PIPELINE = pipeline_block(
    {"clarify": "never"},
    """
  - {name: precheck, before: planner, agent: security-reviewer, prompt: "Check {{query}} first."}
""",
)


def test_a_workspace_pipeline_shapes_the_servers_graph(
    client: Any, thread_id: str, fake_llm: FakeLLM, repo: Path
) -> None:
    # Before: the server compiled the built-in pipeline, so the slot was no node to stop before and clarify ran.
    from slmcode.trust import trust_workspace

    blocks = repo / ".slmcode" / "blocks"
    blocks.mkdir(parents=True, exist_ok=True)
    (blocks / "pipeline.yaml").write_text(SHAPED_PIPELINE)
    trust_workspace(repo)  # a pipeline's slots apply once the user trusts the workspace
    script_planning(fake_llm)
    context = {
        "workspace": str(repo),
        "overrides": {"base_url": fake_llm.url, "model": "qwen2.5-coder:7b", "request_retries": 0},
    }
    start = {
        "run_id": thread_id,
        "query": "Add a divide operation",
        "workspace": str(repo),
        "phase": "start",
        "rounds": 0,
    }
    stream(client, thread_id, input=start, context=context, interrupt_before=["precheck"])
    assert client.threads.get_state(thread_id)["next"] == ["precheck"]
    assert not any(system_text(r).startswith(SYSTEM["clarify"]) for r in fake_llm.requests)  # when: never
    assert any(system_text(r).startswith(SYSTEM["scope_judge"]) for r in fake_llm.requests)
