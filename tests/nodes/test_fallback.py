"""Escalation by measured failure: a task that fails on the small model runs its next attempts on
the role's fallback model, on the fallback's own server and sized to that server's window; the trace and the
verdict table name the model. Two scripted servers on loopback: the small one fails, the fallback fixes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console

from slmcode import api
from slmcode.budget.compute import compute_budget
from slmcode.budget.tokens import count_message_tokens
from slmcode.config import RoleModel, Settings, load_settings
from slmcode.errors import SlmcodeError
from slmcode.nodes.prompts import SYSTEM
from slmcode.providers.roles import RoleTable, fallback_seat
from slmcode.serverpolicy import ServerPolicyError, check_overrides
from slmcode.settings import FallbackModel
from slmcode.store.trace import TraceStore
from slmcode.terminal import result_table
from slmcode.trust import trust_workspace
from tests.fake_llm import FakeLLM, Reply, request_text, tool_call
from tests.graph.scenario import add_bulk_code, divide_worker_replies, script_buggy_worker_then_fix, script_planning

SMALL, BIG = "qwen2.5-coder:7b", "qwen2.5-coder:14b"


def pose_llama_cpp(fake: FakeLLM, tokens: int) -> None:
    fake.get_routes["/props"] = {"default_generation_settings": {"n_ctx": tokens, "n_predict": -1}, "total_slots": 1}


def with_fallback(url: str | None) -> dict[str, RoleModel]:
    return {"worker": RoleModel(fallback=FallbackModel(model=BIG, base_url=url))}


# -- the role table's fallback seat -----------------------------------------------------------------------------


def test_the_fallback_seat_is_the_fallback_model_on_its_server_sized_to_that_servers_window() -> None:
    with FakeLLM(models=[BIG]) as big:
        pose_llama_cpp(big, 6144)
        # The run's window was fitted to the small server (4,096): the fallback's server is asked on its own.
        table = RoleTable(
            Settings(model=SMALL, base_url="http://127.0.0.1:9/v1", context_limit=4096, roles=with_fallback(big.url))
        )
        seat, own = table[fallback_seat("corrector")], table["corrector"]
        assert (seat.binding.model, seat.binding.base_url) == (BIG, big.url)
    assert own.binding.model == SMALL and own.budget.window == 4096
    assert seat.budget.window == 6144 and seat.window is not None and seat.window["server"] == "llama.cpp"
    client = table.client(fallback_seat("corrector"))
    assert client.model_name == BIG and client.prompt_limit == seat.budget.prompt_limit > own.budget.prompt_limit


def test_a_role_without_a_fallback_has_no_fallback_seat() -> None:
    table = RoleTable(Settings(model=SMALL, base_url="http://127.0.0.1:9/v1"))
    with pytest.raises(SlmcodeError, match="no fallback model"):
        table[fallback_seat("corrector")]


def test_a_fallback_without_a_server_runs_on_its_roles_server() -> None:
    table = RoleTable(Settings(model=SMALL, base_url="http://127.0.0.1:9/v1", roles=with_fallback(None)))
    assert table[fallback_seat("corrector")].binding.base_url == "http://127.0.0.1:9/v1"


# -- trust: a workspace's fallback server is a widening setting --------------------------------------------------


def test_an_untrusted_workspaces_fallback_server_is_ignored_until_trusted(tmp_path: Path, isolated_home: Path) -> None:
    ws = tmp_path / "cloned"
    (ws / ".slmcode").mkdir(parents=True)
    theirs = "http://203.0.113.7:8000/v1"
    (ws / ".slmcode" / "config.yaml").write_text(
        f"roles:\n  worker:\n    fallback:\n      model: {BIG}\n      base_url: {theirs}\n", encoding="utf-8"
    )
    loaded = load_settings(ws)
    assert loaded.ignored == ["roles.worker.fallback.base_url"]
    fallback = loaded.settings.roles["worker"].fallback
    assert fallback is not None and fallback.model == BIG and fallback.base_url is None  # the model, not the server
    trust_workspace(ws)
    trusted = load_settings(ws)
    assert trusted.ignored == [] and trusted.settings.roles["worker"].fallback.base_url == theirs
    # A changed fallback server asks again: the trust digest covers it.
    (ws / ".slmcode" / "config.yaml").write_text(
        f"roles:\n  worker:\n    fallback:\n      model: {BIG}\n      base_url: http://203.0.113.8:8000/v1\n",
        encoding="utf-8",
    )
    assert load_settings(ws).ignored == ["roles.worker.fallback.base_url"]


def test_the_users_own_fallback_server_stays_for_an_untrusted_workspace(tmp_path: Path, isolated_home: Path) -> None:
    ours = "http://127.0.0.1:8011/v1"
    (isolated_home / "config.yaml").write_text(
        f"roles:\n  worker:\n    fallback:\n      model: {BIG}\n      base_url: {ours}\n", encoding="utf-8"
    )
    ws = tmp_path / "cloned"
    (ws / ".slmcode").mkdir(parents=True)
    (ws / ".slmcode" / "config.yaml").write_text(
        f"roles:\n  corrector:\n    fallback:\n      model: {BIG}\n      base_url: {ours}\n", encoding="utf-8"
    )
    loaded = load_settings(ws)
    assert loaded.ignored == [] and loaded.settings.roles["corrector"].fallback.base_url == ours


def test_a_server_client_may_pick_the_operators_fallback_endpoint_and_no_other() -> None:
    configured = Settings(
        model=SMALL, base_url="http://127.0.0.1:8010/v1", roles=with_fallback("http://127.0.0.1:8011/v1")
    )
    assert check_overrides({"base_url": "http://127.0.0.1:8011/v1/"}, configured, {}) == {
        "base_url": "http://127.0.0.1:8011/v1/"
    }
    with pytest.raises(ServerPolicyError, match="one of the configured endpoints"):
        check_overrides({"base_url": "http://127.0.0.1:8012/v1"}, configured, {})


# -- whole runs: the small server fails, the fallback fixes ------------------------------------------------------


def script_small_that_never_fixes(fake: FakeLLM) -> None:
    script_planning(fake)
    script_buggy_worker_then_fix(fake, fix=False)  # its corrector answers "I cannot fix it." every time


def script_fallback_fix(fake: FakeLLM) -> None:
    fake.on(
        SYSTEM["corrector"],
        Reply(tool_calls=[tool_call("ws_read", path="calc/ops.py")]),
        Reply(
            tool_calls=[
                tool_call(
                    "ws_edit",
                    path="calc/ops.py",
                    old_str='by b."""\n    return a * b',
                    new_str='by b."""\n    return a / b',
                )
            ]
        ),
        Reply(content="Fixed divide."),
    )


def run(small: FakeLLM, repo: Path, **settings: object) -> api.RunResult:
    events: list[dict] = []
    settings = {"max_retries": 1, **settings}
    result = api.run(
        "Add a divide operation",
        repo,
        base_url=small.url,
        model=SMALL,
        on_event=events.append,
        request_retries=0,
        **settings,
    )
    result.events = events  # type: ignore[attr-defined]
    return result


def table_text(result: api.RunResult) -> str:
    console = Console(record=True, width=200)
    console.print(result_table(result))
    return console.export_text()


def corrector_requests(fake: FakeLLM) -> list[dict]:
    return [r for r in fake.requests if SYSTEM["corrector"] in request_text(r)]


@pytest.mark.slow
def test_a_task_the_small_model_fails_is_fixed_on_the_fallback(repo: Path) -> None:
    with FakeLLM(models=[SMALL]) as small, FakeLLM(models=[BIG]) as big:
        small.ollama_num_ctx = {SMALL: 4096}  # a stock Ollama for the small model
        pose_llama_cpp(big, 16384)  # the fallback's server keeps four times as much
        # Enough code that the packs fill what each budget allows (as in test_window_probe).
        add_bulk_code(repo)
        script_small_that_never_fixes(small)
        script_fallback_fix(big)
        result = run(small, repo, roles={"worker": {"fallback": {"model": BIG, "base_url": big.url}}})
    assert result.outcome == "done", result.outcome
    code = next(t for t in result.tasks if t.kind == "code")
    # The worker and one correction on the small model failed; the third attempt, on the fallback, passed.
    assert code.status == "done" and code.attempts == 3 and code.fallback_model == BIG and code.fallback_at == 2
    assert "return a / b" in (repo / "calc" / "ops.py").read_text()
    assert len(corrector_requests(small)) == 2  # one correction on the small model (its no-tool answer nudged once)
    assert not [r for r in small.requests if SYSTEM["escalate"] in request_text(r)]  # nobody was asked to decide
    fixes = corrector_requests(big)
    assert len(fixes) == 3 and {r["model"] for r in fixes} == {BIG} and len(big.requests) == 3
    # Sized to the fallback's own window: bigger than the small server keeps, within what the fallback keeps.
    small_limit = compute_budget(Settings(context_limit=4096), "corrector", SMALL).prompt_limit
    big_limit = compute_budget(Settings(context_limit=16384), "corrector", BIG).prompt_limit
    sizes = [count_message_tokens(r["messages"]) for r in fixes]
    assert max(sizes) > small_limit and all(size <= big_limit for size in sizes), sizes
    with TraceStore.for_workspace(repo) as trace:
        timeline = trace.timeline(result.run_id)
    (raised,) = [e for e in timeline if e.kind == "fallback"]
    assert raised.task_id == code.id and raised.data["from_model"] == SMALL and raised.data["model"] == BIG
    assert raised.data["reason"] == "criteria failed" and raised.data["window"] == 16384
    windows = [e.data for e in timeline if e.kind == "window"]
    assert [(w["server"], w["window"]) for w in windows] == [("ollama", 4096), ("llama.cpp", 16384)]
    assert "escalate: " + code.id + " -> fallback " + BIG in result.work_log
    shown = table_text(result)
    assert "model" in shown and f"fallback {BIG}" in shown


@pytest.mark.slow
def test_without_a_fallback_the_failed_task_goes_to_the_escalate_role_as_before(repo: Path) -> None:
    with FakeLLM(models=[SMALL]) as small:
        script_small_that_never_fixes(small)
        result = run(small, repo)
    code = next(t for t in result.tasks if t.kind == "code")
    assert result.status == "failed" and code.status == "failed" and code.attempts == 2 and not code.fallback_model
    assert [r for r in small.requests if SYSTEM["escalate"] in request_text(r)]  # asked, and it gave up
    assert not [e for e in result.events if e["kind"] == "fallback"]
    assert " model " not in table_text(result).splitlines()[1]  # the table keeps its columns


@pytest.mark.slow
def test_a_task_that_loops_on_the_small_model_goes_straight_to_the_fallback(repo: Path) -> None:
    with FakeLLM(models=[SMALL]) as small, FakeLLM(models=[BIG]) as big:
        # A criterion that fails until divide's test exists (the calculator's own tests already pass: no proof).
        check = "python -m pytest -q -k divide"
        small.on(
            SYSTEM["splitter"],
            json.dumps(
                {
                    "tasks": [
                        {
                            "title": "Add divide",
                            "description": "Add divide(a, b) and its test",
                            "focus_files": ["calc/ops.py"],
                            "criteria": [{"text": "divide divides", "priority": "must", "verify": check}],
                        }
                    ]
                }
            ),
        )
        script_planning(small)
        # The small worker reads the same file again and again: the loop guard stops it at the fifth call.
        small.on(SYSTEM["worker"], Reply(tool_calls=[tool_call("ws_read", path="calc/ops.py")]))
        small.on(SYSTEM["corrector"], Reply(content="I cannot fix it."))
        small.on(SYSTEM["tester"], Reply(content="Tests pass."))
        big.on(SYSTEM["corrector"], *divide_worker_replies())
        result = run(small, repo, max_retries=2, roles={"worker": {"fallback": {"model": BIG, "base_url": big.url}}})
    assert result.outcome == "done", result.outcome
    code = next(t for t in result.tasks if t.kind == "code")
    assert code.fallback_model == BIG and code.fallback_at == 1 and code.attempts == 2
    # No correction on the model that looped, though max_retries allows 2: the next attempt is the fallback's.
    log = result.work_log
    assert log.index(f"escalate: {code.id} -> fallback {BIG}") == log.index(f"reviewer: {code.id} rejected") + 1
    assert [line for line in log if line.startswith(f"corrector: {code.id} ")] == [f"corrector: {code.id} attempt 2"]
    assert {r["model"] for r in corrector_requests(big)} == {BIG}
    (raised,) = [e for e in result.events if e["kind"] == "fallback"]
    assert raised["reason"] == "loop" and raised["model"] == BIG
