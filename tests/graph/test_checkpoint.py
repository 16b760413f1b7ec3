"""A small real graph round-trips its state through every checkpointer: reopened from storage, the state is
equal and its pydantic items are still pydantic items; a run stopped before a node continues after reopening."""

from __future__ import annotations

import logging
import sys
import uuid
from pathlib import Path
from typing import Annotated, Any

import pytest
from langchain_core.messages import AIMessage, AnyMessage, ToolMessage
from langgraph.graph import END, START, StateGraph
from langgraph.types import Send
from typing_extensions import TypedDict

from slmcode.config import Settings
from slmcode.errors import CheckpointError
from slmcode.graph.checkpoint import list_threads, open_checkpointer, state_types
from slmcode.state import Criterion, Task, Verdict, append_bounded, merge_conversations, merge_tasks
from slmcode.store.paths import CHECKPOINTS


class BoardState(TypedDict, total=False):
    tasks: Annotated[list[Task], merge_tasks]
    work_log: Annotated[list[str], append_bounded]
    conversations: Annotated[dict[str, list[AnyMessage]], merge_conversations]


def plan(state: BoardState) -> dict[str, Any]:
    tasks = [
        Task(
            id="t1",
            title="add greet()",
            focus_files=["app.py"],
            criteria=[Criterion(text="greet works", verify="python -c 'import app'")],
        ),
        Task(id="t2", title="document greet()", depends_on=["t1"], criteria=[Criterion(text="README mentions it")]),
    ]
    return {"tasks": tasks, "work_log": ["planned 2 tasks"]}


def work(state: BoardState) -> dict[str, Any]:
    first = state["tasks"][0]
    criterion = first.criteria[0]
    done = first.model_copy(
        update={
            "status": "done",
            "attempts": 1,
            "files_changed": ["app.py"],
            "verdicts": [Verdict(criterion=criterion, status="PASSED", evidence="ok", exit_code=0)],
        }
    )
    call = {"id": "call-1", "name": "ws_write", "args": {"path": "app.py"}}
    messages = [AIMessage(content="", tool_calls=[call]), ToolMessage(content="wrote app.py", tool_call_id="call-1")]
    return {"tasks": [done], "work_log": ["t1 done"], "conversations": {"t1": messages}}


def build(checkpointer: Any, *, stop_before_work: bool = False) -> Any:
    graph = StateGraph(BoardState)
    graph.add_node("plan", plan)
    graph.add_node("work", work)
    graph.add_edge(START, "plan")
    graph.add_edge("plan", "work")
    graph.add_edge("work", END)
    return graph.compile(checkpointer=checkpointer, interrupt_before=["work"] if stop_before_work else None)


def settings_for(kind: str, request: pytest.FixtureRequest) -> Settings:
    if kind == "postgres":
        return Settings(checkpoint_url=request.getfixturevalue("postgres_url"))
    return Settings()


SAVERS = ["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.mark.parametrize("kind", SAVERS)
def test_state_round_trips_with_pydantic_items_intact(
    kind: str, request: pytest.FixtureRequest, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = settings_for(kind, request)
    config = {"configurable": {"thread_id": f"run-{uuid.uuid4().hex[:8]}"}}
    with open_checkpointer(settings, tmp_path, ephemeral=kind == "memory") as saver:
        final = build(saver).invoke({}, config)
        kept = saver
    with caplog.at_level(logging.WARNING):
        if kind == "memory":
            reloaded = build(kept).get_state(config).values
        else:  # a fresh connection: the state really comes back from storage
            with open_checkpointer(settings, tmp_path) as again:
                reloaded = build(again).get_state(config).values

    assert reloaded == final
    first = reloaded["tasks"][0]
    assert isinstance(first, Task) and isinstance(first.verdicts[0], Verdict)
    assert isinstance(first.verdicts[0].criterion, Criterion)
    assert first.verdicts[0].status == "PASSED" and first.files_changed == ["app.py"]
    assert [type(m) for m in reloaded["conversations"]["t1"]] == [AIMessage, ToolMessage]
    assert reloaded["conversations"]["t1"][0].tool_calls[0]["id"] == "call-1"
    assert not [r for r in caplog.records if "unregistered" in r.getMessage() or "Blocked" in r.getMessage()]


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_a_stopped_run_continues_after_reopening(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    settings = settings_for(kind, request)
    config = {"configurable": {"thread_id": f"run-{uuid.uuid4().hex[:8]}"}}
    with open_checkpointer(settings, tmp_path) as saver:
        build(saver, stop_before_work=True).invoke({}, config)
    with open_checkpointer(settings, tmp_path) as saver:
        graph = build(saver, stop_before_work=True)
        assert graph.get_state(config).next == ("work",)
        final = graph.invoke(None, config)
    assert [t.status for t in final["tasks"]] == ["done", "pending"]
    assert final["work_log"] == ["planned 2 tasks", "t1 done"]


def test_sqlite_checkpoints_live_under_dot_slmcode(tmp_path: Path) -> None:
    with open_checkpointer(Settings(), tmp_path) as saver:
        build(saver).invoke({}, {"configurable": {"thread_id": "r1"}})
    assert (tmp_path / ".slmcode" / CHECKPOINTS).is_file()


class FanState(TypedDict, total=False):
    tasks: Annotated[list[Task], merge_tasks]
    task_id: str


def fan_out(state: FanState) -> list[Send]:
    return [Send("worker", {"task_id": f"t{i}"}) for i in range(4)]


def worker(state: FanState) -> dict[str, Any]:
    return {"tasks": [Task(id=state["task_id"], title=f"task {state['task_id']}", status="done")]}


def test_parallel_workers_checkpoint_from_their_threads(tmp_path: Path) -> None:
    graph = StateGraph(FanState)
    graph.add_node("worker", worker)
    graph.add_conditional_edges(START, fan_out, ["worker"])
    graph.add_edge("worker", END)
    config = {"configurable": {"thread_id": "fan"}}
    with open_checkpointer(Settings(), tmp_path) as saver:
        graph.compile(checkpointer=saver).invoke({}, config)
    with open_checkpointer(Settings(), tmp_path) as saver:
        tasks = graph.compile(checkpointer=saver).get_state(config).values["tasks"]
    assert sorted(t.id for t in tasks) == ["t0", "t1", "t2", "t3"]
    assert all(isinstance(t, Task) and t.status == "done" for t in tasks)


@pytest.mark.parametrize("kind", SAVERS)
def test_list_threads_puts_the_latest_first(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    settings = settings_for(kind, request)
    names = [f"{word}-{uuid.uuid4().hex[:6]}" for word in ("old", "new")]
    with open_checkpointer(settings, tmp_path, ephemeral=kind == "memory") as saver:
        for name in names:
            build(saver).invoke({}, {"configurable": {"thread_id": name}})
        threads = list_threads(saver)
    assert threads.index(names[1]) < threads.index(names[0])


def test_state_types_cover_every_item() -> None:
    assert {cls.__name__ for cls in state_types()} >= {"Criterion", "Verdict", "Task", "PRD", "QAResult"}


@pytest.mark.postgres
def test_unreachable_database_is_one_clear_line(tmp_path: Path) -> None:
    """Needs the `postgres` extra (the driver says the host is unreachable), not a server: skips without it."""
    import socket

    pytest.importorskip("langgraph.checkpoint.postgres", reason="the postgres extra is not installed")

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed once we leave: nothing listens there
    settings = Settings(checkpoint_url=f"postgresql://me:s3cret@127.0.0.1:{port}/db")
    with pytest.raises(CheckpointError) as info, open_checkpointer(settings, tmp_path):
        pass
    message = str(info.value)
    assert "cannot reach the checkpoint database" in message and f":{port}" in message
    assert "s3cret" not in message and "\n" not in message


def test_other_url_schemes_are_refused(tmp_path: Path) -> None:
    with (
        pytest.raises(CheckpointError, match="not a postgresql:// URL"),
        open_checkpointer(Settings(checkpoint_url="mysql://h/db"), tmp_path),
    ):
        pass


def test_missing_postgres_extra_says_what_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if psycopg were not installed
    settings = Settings(checkpoint_url="postgresql://postgres@127.0.0.1:1/postgres")
    with pytest.raises(CheckpointError, match=r"slmcode\[postgres\]"), open_checkpointer(settings, tmp_path):
        pass
