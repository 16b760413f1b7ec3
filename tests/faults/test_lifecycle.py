"""A run's life across failures: one that fails before its first checkpoint, a resume that moves to another
server and model, a task far past the window, a request the window cannot hold, --debug."""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage

from slmcode import api
from slmcode.budget.compute import compute_budget
from slmcode.budget.tokens import count_tokens
from slmcode.config import Settings
from slmcode.errors import EndpointError, RequestTooLargeError
from slmcode.nodes.prompts import SYSTEM
from slmcode.providers.roles import RoleTable
from slmcode.trust import trust_workspace
from tests.fake_llm import FakeLLM, Reply
from tests.faults.harness import (
    MODEL,
    environment,
    resume_args,
    run_args,
    runs_status,
    scripted,
    slmcode_here,
)
from tests.graph.scenario import make_repo

BROKEN = Reply(body="<html>bad gateway</html>", content_type="text/html")
NO_SERVER = "http://127.0.0.1:9/v1"  # nothing listens on port 9


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path)


def test_a_run_that_failed_before_its_first_checkpoint_is_not_resumed(repo: Path, fake_llm: FakeLLM) -> None:
    config = repo / ".slmcode" / "config.yaml"
    config.write_text("checkpoint_url: mysql://db.example/slm\n")
    trust_workspace(repo)  # where checkpoints go is the user's word: a trusted workspace's setting
    scripted(fake_llm)
    done = slmcode_here(*run_args(repo, fake_llm.url))
    assert done.code == 2 and "is not a postgresql:// URL" in done.error_line()
    (run,) = runs_status(repo)
    assert run["status"] == "failed" and run["outcome"].startswith("failed before its first checkpoint")
    config.unlink()
    trust_workspace(repo)  # a change to what was trusted asks again
    by_default = slmcode_here("resume", "-w", repo, "--base-url", fake_llm.url)
    assert by_default.code == 2 and "no unfinished run" in by_default.error_line()
    by_id = slmcode_here("resume", run["run_id"], "-w", repo, "--base-url", fake_llm.url)
    assert by_id.code == 2
    line = by_id.error_line()
    assert f"run {run['run_id']} cannot be resumed: failed before its first checkpoint" in line
    assert "start it again with `slmcode run`" in line and "EmptyInputError" not in line
    assert fake_llm.requests == []
    # With no server running it says the same (before: 'the model server ... is unreachable').
    no_server = slmcode_here("resume", run["run_id"], "-w", repo, "--base-url", NO_SERVER)
    assert no_server.code == 2 and no_server.error_line() == line


def test_resume_of_a_finished_run_says_so_before_any_server_is_probed(repo: Path, fake_llm: FakeLLM) -> None:
    # Before: with no server running, 'the model server ... is unreachable', and the finished run was then
    # recorded as interrupted (the next bare `resume` picked it); with one, the result was printed again.
    scripted(fake_llm)
    assert slmcode_here(*run_args(repo, fake_llm.url)).code == 0
    (run,) = runs_status(repo)
    run_id = run["run_id"]
    for named in (run_id, run_id[:-2]):
        done = slmcode_here("resume", named, "-w", repo, "--base-url", NO_SERVER, "--yes")
        assert done.code == 2 and done.out == ""  # no empty run board before the line (terminal.RunView)
        assert done.error_line() == (
            f"error: run {run_id} already finished (done): nothing to resume; `slmcode "
            f"trace {run_id}` replays it, `slmcode run` starts a new one"
        )
    assert [r["status"] for r in runs_status(repo)] == ["done"]
    by_default = slmcode_here("resume", "-w", repo, "--base-url", NO_SERVER)
    assert by_default.code == 2 and "no unfinished run" in by_default.error_line()


def test_resume_moves_the_run_to_another_server_and_model(repo: Path) -> None:
    with FakeLLM() as first, FakeLLM() as second:
        scripted(first, fault=BROKEN, role="worker", after=1)
        assert slmcode_here(*run_args(repo, first.url)).code == 2
        planned = len(first.requests)
        scripted(second)
        done = slmcode_here(*resume_args(repo, second.url, "--model", "other-coder-7b"))
        assert done.code == 0, done.out[-2000:] + done.err[-2000:]
        assert len(first.requests) == planned  # nothing more went to the old server
        assert {r["model"] for r in second.requests} == {"other-coder-7b"}
        # The checkpointed plan stays: the new server is never asked to plan again.
        assert not [r for r in second.requests if SYSTEM["planner"] in str(r["messages"][0].get("content", ""))]
    assert (repo / "calc" / "ops.py").read_text().count("def divide") == 1


def test_resume_honours_slmcode_base_url(repo: Path, fake_llm: FakeLLM) -> None:
    scripted(fake_llm, fault=BROKEN)
    assert slmcode_here(*run_args(repo, fake_llm.url)).code == 2
    with FakeLLM() as other:
        other.default = BROKEN
        done = slmcode_here("resume", "-w", repo, "--yes", env=environment(SLMCODE_BASE_URL=other.url))
        assert done.code == 2 and other.url in done.error_line()
        assert other.requests


def requests_fit(fake: FakeLLM, model: str) -> None:
    limit = compute_budget(Settings(model=model), "worker", model).prompt_limit
    sizes = [sum(count_tokens(str(m.get("content") or "")) for m in r["messages"]) for r in fake.requests]
    assert sizes and max(sizes) <= limit, (max(sizes), limit)


def test_a_120_kb_task_is_offloaded_and_every_request_fits(repo: Path, fake_llm: FakeLLM) -> None:
    task = "Add a divide operation to calc/ops.py.\n" + "".join(
        f"Note {i}: the division must keep working for input number {i}.\n" for i in range(2400)
    )
    assert len(task.encode()) > 120_000
    scripted(fake_llm)
    done = slmcode_here(*run_args(repo, fake_llm.url, query=task))
    assert done.code == 0, done.out[-2000:] + done.err[-2000:]
    requests_fit(fake_llm, MODEL)
    (saved,) = (repo / ".slmcode" / "scratch").glob("*/task.md")
    assert saved.read_text() == task
    assert any(
        "task shortened" in str(m.get("content")) and str(saved.relative_to(repo)) in str(m.get("content"))
        for r in fake_llm.requests
        for m in r["messages"]
    )


def test_a_1_mb_task_through_the_api_never_sends_an_oversized_request(repo: Path, fake_llm: FakeLLM) -> None:
    task = "Add divide. " + "x" * 1_000_000
    scripted(fake_llm, fault=BROKEN, role="worker", after=1)
    with pytest.raises(EndpointError, match="not a chat completion"):
        api.run(task, repo, base_url=fake_llm.url, model=MODEL)
    requests_fit(fake_llm, MODEL)
    (saved,) = (repo / ".slmcode" / "scratch").glob("*/task.md")
    assert len(saved.read_text()) == len(task)


def test_a_request_over_the_window_is_refused_before_it_is_sent(fake_llm: FakeLLM) -> None:
    model = RoleTable(Settings(base_url=fake_llm.url, model=MODEL)).client("worker")
    with pytest.raises(RequestTooLargeError, match=r"a worker request of \d+ tokens exceeds the prompt limit of 6144"):
        model.invoke([HumanMessage("word " * 8000)])
    assert fake_llm.requests == []


def test_debug_shows_the_traceback_and_still_ends_with_the_line(repo: Path, fake_llm: FakeLLM) -> None:
    scripted(fake_llm, fault=BROKEN)
    done = slmcode_here("--debug", *run_args(repo, fake_llm.url))
    assert done.code == 2
    assert "Traceback" in done.err
    assert done.err.strip().splitlines()[-1].startswith("error: the model server at")
