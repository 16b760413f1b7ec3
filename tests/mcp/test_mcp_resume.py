"""A run killed while a step's MCP calls are under way resumes without calling again the ones that had
answered: the worker's tool-call journal holds their results (the test server counts its calls on disk)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from slmcode.nodes.prompts import SYSTEM
from slmcode.trust import trust_workspace
from tests.fake_llm import FakeLLM, Reply, tool_call
from tests.graph.crash import PROJECT, RunProcess, environment, finish, kill, wait_until
from tests.graph.scenario import script_buggy_worker_then_fix, script_planning
from tests.mcp.conftest import stdio_settings, write_agent, write_config


def start(repo: Path, fake: FakeLLM, mode: str, home: Path) -> RunProcess:
    argv = [
        sys.executable,
        "-m",
        "tests.graph.resume_runner",
        mode,
        "--workspace",
        str(repo),
        "--run-id",
        "run-mcp-kill",
        "--base-url",
        fake.url,
        *(["--query", "Add a divide operation"] if mode == "run" else []),
    ]
    out, err = repo.parent / f"{mode}.out", repo.parent / f"{mode}.err"
    with out.open("w") as stdout, err.open("w") as stderr:
        proc = subprocess.Popen(
            argv, cwd=PROJECT, env=environment(home), stdout=stdout, stderr=stderr, start_new_session=True
        )
    return RunProcess(proc, out, err)


def test_a_killed_step_does_not_call_an_answered_mcp_tool_twice(fake_llm: FakeLLM, repo: Path, tmp_path: Path) -> None:
    write_config(repo, **stdio_settings())
    write_agent(repo, "worker", ["mcp__calc__bump", "mcp__calc__wait_for"])
    trust_workspace(repo, {"SLMCODE_HOME": str(tmp_path / "home")})  # the runs' own home trusts it too
    script_planning(fake_llm)
    fake_llm.on(
        SYSTEM["worker"],
        Reply(tool_calls=[tool_call("mcp__calc__bump"), tool_call("mcp__calc__wait_for", gate="go")]),
        times=1,
    )
    script_buggy_worker_then_fix(fake_llm)
    bumps = repo / "bumps.txt"
    first = start(repo, fake_llm, "run", tmp_path / "home")
    # The step's second call has begun, so the first one's answer is in the journal; then the kill.
    wait_until(lambda: (repo / "go.waiting").exists(), "the second MCP call", first)
    kill(first)
    assert bumps.read_text() == "bump\n"
    (repo / "go").write_text("")
    assert finish(start(repo, fake_llm, "resume", tmp_path / "home"))["outcome"] == "done"
    assert bumps.read_text() == "bump\n"  # answered from the journal, not called again
    answered = [
        m["content"]
        for r in fake_llm.requests
        for m in r["messages"]
        if m["role"] == "tool" and m["content"] in ("1", "released")
    ]
    assert "1" in answered and "released" in answered
