"""The LangGraph server's graph factory (graph/app.py:make_graph, named in langgraph.json) shapes the graph by
the run's workspace as the CLI does: a pipeline's slot and a `when: never` phase are in the server's graph, the
same compiled graph serves the next run of that workspace and pipeline, a read of the thread gets the graph
it ran with, and a context the server policy refuses gets the built-in graph (its first node refuses the run).
The runtimes are langgraph_sdk's own, as the server builds them."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from langgraph.store.memory import InMemoryStore
from langgraph_sdk.runtime import _ExecutionRuntime, _ReadRuntime

from slmcode.blocks.compose import resolve_pipeline
from slmcode.config import Settings
from slmcode.graph.app import make_graph
from slmcode.graph.builder import build_graph
from tests.graph.test_shape_table import pipeline_phases, shape

SLOT_AND_NEVER = "a slot after reviewer, clarify never"
ROOT = Path(__file__).resolve().parents[2]


def served(workspace: Path | str, thread: str):
    runtime = _ExecutionRuntime(
        access_context="threads.create_run",
        store=InMemoryStore(),
        context={"workspace": str(workspace), "overrides": {"model": "qwen2.5-coder:7b"}},
    )
    return asyncio.run(make_graph({"configurable": {"thread_id": thread}}, runtime))


def read(thread: str):
    runtime = _ReadRuntime(access_context="threads.read", store=InMemoryStore())
    return asyncio.run(make_graph({"configurable": {"thread_id": thread}}, runtime))


@pytest.fixture
def allowed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "allowed"
    root.mkdir()
    monkeypatch.setenv("SLMCODE_ALLOWED_ROOTS", str(root))
    return root


def test_langgraph_json_names_the_factory() -> None:
    assert json.loads((ROOT / "langgraph.json").read_text())["graphs"]["slmcode"] == "./slmcode/graph/app.py:make_graph"


def test_a_workspace_pipeline_shapes_the_server_graph_as_the_cli(allowed: Path) -> None:
    phases = pipeline_phases(allowed / "shaped", SLOT_AND_NEVER)
    cli = build_graph(None, resolve_pipeline(allowed / "shaped", Settings()).phases)
    graph = served(allowed / "shaped", "t-1")
    drawn = graph.get_graph().draw_mermaid()
    assert "security_check" in drawn and "reviewer --> security_check;" in drawn
    assert "clarify -.-> interview" not in drawn  # clarify never: no interview after it
    assert shape(graph) == shape(cli) != shape(build_graph())
    assert [p.name for p in phases if p.slot] == ["security_check"]
    # Cached: the next run of the same workspace and pipeline gets the same compiled graph, and a read of the
    # thread (no context) the graph it ran with.
    assert served(allowed / "shaped", "t-2") is graph
    assert read("t-1") is graph

    (allowed / "plain").mkdir()
    assert shape(served(allowed / "plain", "t-3")) == shape(build_graph())
    assert shape(read("t-1")) == shape(cli)


def test_a_refused_context_and_an_unknown_thread_get_the_built_in_graph(allowed: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    pipeline_phases(outside, SLOT_AND_NEVER)  # shaped, but not under the allowed roots
    assert shape(served(outside, "t-4")) == shape(build_graph())
    assert shape(read("never-ran")) == shape(build_graph())
