"""A model server that answers badly: every broken answer ends the run in one line naming the server, exit 2,
the workspace untouched, the run left resumable, and `slmcode resume` either continues it or says why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from slmcode.store.trace import TraceStore
from tests.fake_llm import FakeLLM, Reply
from tests.faults.harness import (
    assert_resume_answers,
    assert_state_intact,
    environment,
    run_args,
    runs_status,
    scripted,
    slmcode_here,
    tree_digest,
)
from tests.graph.scenario import make_repo

COMPLETION_HEAD = {"id": "x", "object": "chat.completion", "created": 1, "model": "m"}
BROKEN_ANSWERS = {
    "HTML page with 200": Reply(body="<html><body>502 Bad Gateway</body></html>", content_type="text/html"),
    "non-JSON body as JSON": Reply(body="upstream timed out"),
    "empty body": Reply(body=b""),
    "choices: []": Reply(body=json.dumps({**COMPLETION_HEAD, "choices": []})),
    "a JSON list": Reply(body="[]"),
    "message null": Reply(body=json.dumps({**COMPLETION_HEAD, "choices": [{"index": 0, "message": None}]})),
    "an unrequested stream": Reply(content='{"requirements": ["divide"], "questions": []}', stream=True),
    "non-UTF-8 bytes": Reply(body=b'{"choices": "\xff\xfe"}'),
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path)


@pytest.mark.parametrize("fault", sorted(BROKEN_ANSWERS))
@pytest.mark.parametrize("role", ["clarify", "worker"])
def test_a_broken_answer_is_one_line_and_the_run_stays_resumable(
    fault: str, role: str, repo: Path, fake_llm: FakeLLM
) -> None:
    if role == "worker" and fault == "an unrequested stream":
        pytest.skip("the worker asks for a stream (its tokens show while it works): a stream is its answer")
    scripted(fake_llm, fault=BROKEN_ANSWERS[fault], role=role, after=1 if role == "worker" else 0)
    before = tree_digest(repo)
    done = slmcode_here(*run_args(repo, fake_llm.url))
    assert done.code == 2, done.err[-2000:]
    line = done.error_line()
    assert fake_llm.url in line and f"a {role} request" in line and "not a chat completion" in line
    if role == "clarify":
        assert tree_digest(repo) == before
    assert_state_intact(repo)
    (run,) = runs_status(repo)
    assert run["status"] == "interrupted" and run["recorded_status"] == "interrupted"
    assert run["outcome"].startswith("interrupted: the model server at")


# A 200 whose body stops early: a proxy that cut it (its Content-Length cut too), or a server dying mid-write.
CUT_ANSWERS = {
    "cut by a proxy": Reply(body='{"id": "x", "object": "chat.completion", "choices": [{"mess'),
    "cut mid-write": Reply(content="ignored", cut=40),
    "cut, length cut too": Reply(content="ignored", cut=40, cut_length=True),
}


@pytest.mark.parametrize("fault", sorted(CUT_ANSWERS))
@pytest.mark.parametrize("role", ["clarify", "worker"])
def test_a_cut_answer_is_asked_again_and_the_run_goes_on(fault: str, role: str, repo: Path, fake_llm: FakeLLM) -> None:
    # Before: a proxy's cut body ended the run with "not a chat completion", while a 429, a 5xx or a timeout
    # was retried within request_retries.
    scripted(fake_llm, fault=CUT_ANSWERS[fault], role=role, after=1 if role == "worker" else 0)
    done = slmcode_here(*run_args(repo, fake_llm.url))
    assert done.code == 0, done.err[-2000:]
    assert (repo / "calc" / "ops.py").read_text().count("def divide") == 1
    asked = [json.dumps(r["messages"], sort_keys=True) for r in fake_llm.requests]
    assert len(asked) > len(set(asked))  # the cut request went out again
    (run,) = runs_status(repo)
    assert run["status"] == "done"


def test_a_cut_answer_every_time_ends_the_run_in_one_line(repo: Path, fake_llm: FakeLLM) -> None:
    fake_llm.default = CUT_ANSWERS["cut by a proxy"]
    done = slmcode_here(*run_args(repo, fake_llm.url), env=environment(SLMCODE_REQUEST_RETRIES="1"))
    assert done.code == 2
    assert "not a chat completion" in done.error_line() and "Traceback" not in done.err
    assert len(fake_llm.requests) == 2  # the first request and its one retry


@pytest.mark.parametrize("fault", ["HTML page with 200"])
def test_resume_after_a_broken_answer_finishes_the_run(fault: str, repo: Path, fake_llm: FakeLLM) -> None:
    scripted(fake_llm, fault=BROKEN_ANSWERS[fault], role="worker", after=1)
    assert slmcode_here(*run_args(repo, fake_llm.url)).code == 2
    done = assert_resume_answers(repo, fake_llm.url)
    assert done.code == 0, done.out[-2000:] + done.err[-2000:]
    assert (repo / "calc" / "ops.py").read_text().count("def divide") == 1
    assert_state_intact(repo)
    (run,) = runs_status(repo)
    with TraceStore.for_workspace(repo) as trace:
        kinds = [e.kind for e in trace.timeline(run["run_id"])]
    # Started, stopped by the fault, resumed, ended: each start and each end recorded once.
    assert kinds.count("run_started") == 2 and kinds.count("run_finished") == 2
    assert kinds[-1] == "run_finished"


@pytest.mark.parametrize(("status", "says"), [(401, "401"), (404, "404"), (500, "500")])
def test_an_error_status_on_every_request_is_not_a_traceback(
    status: int, says: str, repo: Path, fake_llm: FakeLLM
) -> None:
    fake_llm.default = Reply(content=f"fake failure {status}", status=status)
    before = tree_digest(repo)
    done = slmcode_here(*run_args(repo, fake_llm.url, "--json"), env=environment(SLMCODE_REQUEST_RETRIES="0"))
    assert done.code in (1, 2), done.err[-2000:]
    assert "Traceback" not in done.err
    assert tree_digest(repo) == before
    assert_state_intact(repo)
    if done.code == 2:
        assert says in done.err
    assert_resume_answers(repo, fake_llm.url, env=environment(SLMCODE_REQUEST_RETRIES="0"))


def test_an_unreachable_server_names_it_and_resume_says_so_again(repo: Path) -> None:
    url = "http://127.0.0.1:9/v1"
    done = slmcode_here(*run_args(repo, url), env=environment(SLMCODE_REQUEST_RETRIES="0"))
    assert done.code == 2 and "unreachable" in done.error_line()
    again = assert_resume_answers(repo, url, env=environment(SLMCODE_REQUEST_RETRIES="0"))
    assert again.code == 2 and "unreachable" in again.error_line()


@pytest.mark.parametrize(("status", "hint"), [(404, "does the server serve --model"), (401, "is the api_key right?")])
def test_a_refusal_no_reask_can_cure_stops_the_run_at_the_first_request(
    status: int, hint: str, repo: Path, fake_llm: FakeLLM
) -> None:
    # Before: clarify, scope_judge, planner and splitter each re-asked and fell back (13 requests), then the
    # worker's request failed with the same status.
    fake_llm.default = Reply(body='{"error": {"message": "model \'other\' not found"}}', status=status)
    done = slmcode_here(*run_args(repo, fake_llm.url), env=environment(SLMCODE_REQUEST_RETRIES="0"))
    assert done.code == 2
    line = done.error_line()
    assert f"the model server refused the request ({status})" in line and hint in line
    assert len(fake_llm.requests) == 1
