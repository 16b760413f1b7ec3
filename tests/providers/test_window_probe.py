"""The window a server really keeps, asked at run start: one scripted server per kind answering as Ollama,
llama.cpp, vLLM and LM Studio do, one that says nothing, and whole runs sized to the server's window."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console

from slmcode import api
from slmcode.budget.compute import compute_budget
from slmcode.budget.tokens import count_message_tokens
from slmcode.config import Settings
from slmcode.providers.server_window import ServerWindow, server_window
from slmcode.serving import fit_to_server
from slmcode.store.trace import TraceStore
from slmcode.terminal import RunView
from tests.fake_llm import FakeLLM
from tests.graph.scenario import add_bulk_code, script_buggy_worker_then_fix, script_planning

MODEL = "qwen2.5-coder:7b"  # its profile assumes 8,192 tokens


def pose(fake: FakeLLM, kind: str, tokens: int | None) -> None:
    """Make the scripted server answer its window as `kind` does (None: as a stock install does)."""
    if kind == "ollama":
        fake.ollama_num_ctx = {MODEL: tokens}
    elif kind == "llama.cpp":
        fake.get_routes["/props"] = {
            "default_generation_settings": {"n_ctx": tokens, "n_predict": -1},
            "total_slots": 1,
        }
    elif kind == "vllm":
        fake.get_routes["/v1/models"] = {
            "object": "list",
            "data": [{"id": MODEL, "object": "model", "owned_by": "vllm", "max_model_len": tokens}],
        }
    elif kind == "lm-studio":
        fake.get_routes["/api/v0/models"] = {
            "object": "list",
            "data": [
                {"id": "text-embedding-nomic", "type": "embeddings", "max_context_length": 2048},
                {
                    "id": MODEL,
                    "type": "llm",
                    "state": "loaded",
                    "max_context_length": 32768,
                    "loaded_context_length": tokens,
                },
            ],
        }


@pytest.fixture
def served() -> FakeLLM:
    with FakeLLM(models=[MODEL]) as fake:
        yield fake


@pytest.mark.parametrize("kind", ["ollama", "llama.cpp", "vllm", "lm-studio"])
def test_each_server_kind_says_its_window(served: FakeLLM, kind: str) -> None:
    pose(served, kind, 4096)
    assert server_window(served.url, MODEL) == ServerWindow(kind, 4096)


def test_a_stock_ollama_keeps_its_default_window(served: FakeLLM) -> None:
    pose(served, "ollama", None)  # no num_ctx in the Modelfile; the server says version 0.12
    assert server_window(served.url, MODEL) == ServerWindow("ollama", 4096)


def test_a_server_that_says_nothing_or_is_gone_is_unknown(served: FakeLLM) -> None:
    assert server_window(served.url, MODEL) == ServerWindow("unknown", None)
    with FakeLLM() as gone:
        url = gone.url
    assert server_window(url, MODEL) == ServerWindow("unknown", None)


@pytest.mark.parametrize("kind", ["ollama", "llama.cpp", "vllm", "lm-studio"])
def test_a_smaller_server_window_sizes_the_budget(served: FakeLLM, kind: str) -> None:
    pose(served, kind, 4096)
    settings = Settings(model=MODEL, base_url=served.url)
    fitted, event = fit_to_server(settings)
    assert fitted.context_limit == 4096 and event["window"] == 4096 and not event["warning"]
    assert event["message"].startswith(f"window 4096 tokens ({kind} keeps 4096): less than the 8192 of ")
    assert compute_budget(fitted).prompt_limit < compute_budget(settings).prompt_limit


def test_a_larger_server_window_keeps_the_profile(served: FakeLLM) -> None:
    pose(served, "vllm", 32768)
    settings = Settings(model=MODEL, base_url=served.url)
    fitted, event = fit_to_server(settings)
    assert fitted.context_limit is None and event["window"] == 8192 and event["server_tokens"] == 32768


def test_a_set_context_limit_is_kept_with_a_warning_when_the_server_keeps_less(served: FakeLLM) -> None:
    pose(served, "llama.cpp", 4096)
    fitted, event = fit_to_server(Settings(model=MODEL, base_url=served.url, context_limit=16384))
    assert fitted.context_limit == 16384 and event["warning"]
    assert "warning: context_limit 16384 is larger than the 4096 tokens the server keeps" in event["message"]
    fitted, event = fit_to_server(Settings(model=MODEL, base_url=served.url, context_limit=2048))
    assert fitted.context_limit == 2048 and not event["warning"] and event["window"] == 2048


def test_an_unknown_window_falls_back_to_the_profile_and_says_so(served: FakeLLM) -> None:
    fitted, event = fit_to_server(Settings(model=MODEL, base_url=served.url))
    assert fitted.context_limit is None and event["window"] == 8192 and event["server_tokens"] is None
    assert "the server did not say its window" in event["message"]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["llama.cpp", "ollama"])
def test_a_run_fits_every_request_into_the_window_the_server_keeps(served: FakeLLM, repo: Path, kind: str) -> None:
    window = 4096
    pose(served, kind, window)
    # Enough code that the packs and the map fill what the budget allows: sized from the profile's 8,192 tokens,
    # this run's biggest request is 3,514 tokens, past the 2,880 a 4,096-token window leaves for a prompt.
    add_bulk_code(repo)
    script_planning(served)
    script_buggy_worker_then_fix(served)
    events: list[dict] = []
    result = api.run(
        "Add a divide operation", repo, base_url=served.url, model=MODEL, on_event=events.append, request_retries=0
    )
    shown = [e for e in events if e["kind"] == "window"]
    assert len(shown) == 1 and shown[0]["message"].startswith(f"window {window} tokens ({kind} keeps {window})")
    with TraceStore.for_workspace(repo) as trace:
        recorded = [e.data for e in trace.timeline(result.run_id) if e.kind == "window"]
    assert [(r["server"], r["window"]) for r in recorded] == [(kind, window)]
    limit = compute_budget(Settings(context_limit=window), "worker", MODEL).prompt_limit
    assert result.outcome == "done", result.outcome
    assert served.requests and all(count_message_tokens(r["messages"]) <= limit for r in served.requests)


class Paused(Exception):
    """Stands for the user leaving at the plan question: the run stops, checkpointed, to be resumed."""


@pytest.mark.slow
def test_a_resumed_run_asks_again_and_the_board_says_the_window(served: FakeLLM, repo: Path) -> None:
    pose(served, "llama.cpp", 8192)
    script_planning(served)
    script_buggy_worker_then_fix(served)

    def leave(question: dict) -> object:
        raise Paused

    with pytest.raises(Paused):
        api.run(
            "Add a divide operation",
            repo,
            base_url=served.url,
            model=MODEL,
            request_retries=0,
            approve="plan",
            answer=leave,
        )
    with TraceStore.for_workspace(repo) as trace:
        (run,) = trace.runs()
    pose(served, "llama.cpp", 4096)  # the server was restarted with a smaller window meanwhile
    console = Console(width=160, record=True, color_system=None, force_terminal=False)
    with RunView(console) as view:
        result = api.resume(run.run_id, repo, base_url=served.url, model=MODEL, on_event=view.on_event)
    assert result.outcome == "done", result.outcome
    assert "window 4096 tokens (llama.cpp keeps 4096): less than the 8192 of" in console.export_text()
    with TraceStore.for_workspace(repo) as trace:
        recorded = [e.data for e in trace.timeline(run.run_id) if e.kind == "window"]
    assert [(r["server_tokens"], r["window"]) for r in recorded] == [(8192, 8192), (4096, 4096)]


def test_a_langgraph_server_run_is_sized_to_the_servers_window_too(
    served: FakeLLM, tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client of `langgraph dev` passes workspace and overrides; its run's settings are sized as a CLI run's."""
    from slmcode.run_context import RunContext

    repo = tmp_path / "allowed" / "repo"
    repo.mkdir(parents=True)
    (isolated_home / "config.yaml").write_text(f"base_url: {served.url}\n")  # the operator's own model server
    monkeypatch.setenv("SLMCODE_ALLOWED_ROOTS", str(tmp_path / "allowed"))
    pose(served, "llama.cpp", 4096)
    settings = RunContext(workspace=str(repo), overrides={"model": MODEL}).resolved_settings()
    assert settings.context_limit == 4096
