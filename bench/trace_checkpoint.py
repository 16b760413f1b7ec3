"""What recording costs: trace store writes and reads, and checkpointing a worker-like loop per saver.

The loop graph imitates a worker: each superstep appends a tool call and its result to a conversation and
updates one Task among ten, so checkpoint sizes grow the way a real run's do. Prints two tables of figures;
nothing here is a test and nothing asserts.

Usage: python bench/trace_checkpoint.py [--steps N] [--postgres postgresql://...]
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

from langchain_core.messages import AIMessage, AnyMessage, ToolMessage
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

from slmcode.config import Settings
from slmcode.graph.checkpoint import open_checkpointer
from slmcode.state import Criterion, Task, merge_conversations, merge_tasks
from slmcode.store.paths import CHECKPOINTS
from slmcode.store.trace import TraceStore


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def timed(action: Callable[[int], object], runs: int) -> tuple[float, float]:
    samples = []
    for i in range(runs):
        start = time.perf_counter()
        action(i)
        samples.append((time.perf_counter() - start) * 1000)
    return percentiles(samples)


def trace_rows(runs: int) -> list[tuple[str, float, float]]:
    folder = Path(tempfile.mkdtemp())
    store = TraceStore.for_workspace(folder)
    store.start_run("r", query="bench", workspace=str(folder), model="m", settings={})
    pack_text = "def f():\n    return 1\n" * 400  # ~8 KB, a small model's whole pack
    rows = [
        ("record_event", *timed(lambda i: store.record_event("r", "phase", {"i": i}), runs)),
        (
            "record_tool_call",
            *timed(
                lambda i: store.record_tool_call(
                    "r", task_id="t1", name="ws_read", args={"path": "a.py"}, ok=True, summary="x" * 2000
                ),
                runs,
            ),
        ),
        (
            "record_pack (8 KB)",
            *timed(
                lambda i: store.record_pack(
                    "r",
                    role="worker",
                    task_id="t1",
                    tokens=2000,
                    budget=4270,
                    sections=[("task", 2000)],
                    hash=str(i),
                    text=pack_text,
                ),
                runs,
            ),
        ),
        (f"timeline ({3 * runs + 1} events)", *timed(lambda i: store.timeline("r"), 20)),
        ("pack lookup", *timed(lambda i: store.pack("r", "worker", "t1"), runs)),
        (
            "record_event, new store per call",
            *timed(lambda i: TraceStore.for_workspace(folder).record_event("r", "phase", {"i": i}), 20),
        ),
    ]
    store.close()
    return rows


class LoopState(TypedDict, total=False):
    tasks: Annotated[list[Task], merge_tasks]
    conversations: Annotated[dict[str, list[AnyMessage]], merge_conversations]
    step: int


def loop_graph(steps: int) -> Any:
    def seed(state: LoopState) -> dict[str, Any]:
        tasks = [
            Task(
                id=f"t{i}",
                title=f"task {i}",
                focus_files=[f"src/m{i}.py"],
                criteria=[Criterion(text="tests pass", verify="pytest -q")],
            )
            for i in range(10)
        ]
        return {"tasks": tasks, "step": 0}

    def work(state: LoopState) -> dict[str, Any]:
        n = state["step"] + 1
        call = {"id": f"c{n}", "name": "ws_read", "args": {"path": "src/m1.py"}}
        result = ToolMessage(content="x = 1\n" * 100, tool_call_id=f"c{n}")
        messages = [AIMessage(content="", tool_calls=[call]), result]
        task = state["tasks"][1].model_copy(update={"attempts": n})
        return {"tasks": [task], "conversations": {"t1": messages}, "step": n}

    graph = StateGraph(LoopState)
    graph.add_node("seed", seed)
    graph.add_node("work", work)
    graph.add_edge(START, "seed")
    graph.add_edge("seed", "work")
    graph.add_conditional_edges("work", lambda s: END if s["step"] >= steps else "work")
    return graph


def sqlite_bytes(folder: Path) -> int:
    with sqlite3.connect(folder / ".slmcode" / CHECKPOINTS) as conn:
        (checkpoints,) = conn.execute("SELECT SUM(LENGTH(checkpoint) + LENGTH(metadata)) FROM checkpoints").fetchone()
        (writes,) = conn.execute("SELECT SUM(LENGTH(value)) FROM writes").fetchone()
    return int(checkpoints or 0) + int(writes or 0)


def checkpoint_rows(steps: int, postgres: str | None) -> list[tuple[str, float, float, str]]:
    cases: list[tuple[str, Settings, bool, str]] = [
        ("none (no checkpointer)", Settings(), False, ""),
        ("InMemorySaver", Settings(), True, "async"),
        ("SqliteSaver, durability=async", Settings(), False, "async"),
        ("SqliteSaver, durability=sync", Settings(), False, "sync"),
    ]
    if postgres:
        cases.append(("PostgresSaver, durability=sync", Settings(checkpoint_url=postgres), False, "sync"))
    rows = []
    for name, settings, ephemeral, durability in cases:
        folder = Path(tempfile.mkdtemp())
        samples: list[float] = []
        size = ""
        if not durability:
            graph = loop_graph(steps).compile()
            start = time.perf_counter()
            graph.invoke({})
            samples.append((time.perf_counter() - start) * 1000 / steps)
        else:
            with open_checkpointer(settings, folder, ephemeral=ephemeral) as saver:
                graph = loop_graph(steps).compile(checkpointer=saver)
                for run in range(3):
                    start = time.perf_counter()
                    graph.invoke({}, {"configurable": {"thread_id": f"b{run}-{time.time_ns()}"}}, durability=durability)
                    samples.append((time.perf_counter() - start) * 1000 / steps)
            if "Sqlite" in name:
                size = f"{sqlite_bytes(folder) / 3 / 1024:.0f} KB"
        p50, p95 = percentiles(samples)
        rows.append((name, p50, p95, size))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--postgres", default=None, help="postgresql:// URL of a scratch database")
    options = parser.parse_args()
    print(f"trace store, {options.runs} calls each")
    print(f"{'operation':38} {'p50 ms':>8} {'p95 ms':>8}")
    for name, p50, p95 in trace_rows(options.runs):
        print(f"{name:38} {p50:8.2f} {p95:8.2f}")
    print(f"\ncheckpointing a worker-like loop of {options.steps} supersteps (3 runs; ms per superstep)")
    print(f"{'saver':38} {'p50 ms':>8} {'worst':>8} {'bytes/run':>10}")
    for name, p50, p95, size in checkpoint_rows(options.steps, options.postgres):
        print(f"{name:38} {p50:8.2f} {p95:8.2f} {size:>10}")


if __name__ == "__main__":
    main()
