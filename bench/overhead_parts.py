"""The parts of a worker iteration, for bench/overhead.py: wall time per part, and cProfile in every thread.

LangGraph runs each node, and the checkpointer, on its executor's threads: a profiler enabled in the main
thread sees only the waiting. Nothing here is a test.
"""

from __future__ import annotations

import cProfile
import functools
import importlib
import pstats
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

# Where an iteration's time goes: (module, attribute, label). Wrapped for --breakdown only; a name a later
# refactor removed is skipped. The saver runs on LangGraph's executor thread; with durability="sync" (api.run)
# each step waits for it, so its time is part of the iteration too.
STEP_PARTS = (
    ("slmcode.nodes.worker.model_request", "request_view", "pre-model hook (request view)"),
    ("slmcode.providers.roles", "RoleTable.client", "chat client (role table)"),
    ("slmcode.nodes.worker.loop", "make_tools", "tool set built"),
    ("slmcode.nodes.worker.model_request", "repair_tool_calls", "tool-call repair"),
    ("slmcode.nodes.worker.loop", "run_tool_call", "the tool itself"),
    ("slmcode.store.journal", "recorded", "journal lookup"),
    ("slmcode.store.journal", "record", "journal write"),
    ("slmcode.nodes.worker.loop", "discover_skills", "skills discovered"),
    ("slmcode.nodes.worker.loop", "quality_of", "quality commands"),
    ("slmcode.nodes.worker.loop", "files_read", "transcript scan"),
    ("slmcode.store.trace", "TraceStore.record_event", "trace writes (events, calls)"),
    ("langgraph.checkpoint.sqlite", "SqliteSaver.put", "checkpoint put (saver thread)"),
    ("langgraph.checkpoint.sqlite", "SqliteSaver.put_writes", "checkpoint writes (saver thread)"),
)
STEPS = (("slmcode.graph.builder", "work"), ("slmcode.graph.builder", "run_tools"))


class Breakdown:
    """Wall time per part, counted while a worker or tools step runs (checkpoint parts: always)."""

    def __init__(self) -> None:
        self.ms: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self.lock = threading.Lock()
        self.local = threading.local()

    def wrap(self, fn: Callable[..., Any], label: str, *, step: bool = False) -> Callable[..., Any]:
        saver = "saver thread" in label  # counted always: no step flag reaches that thread

        @functools.wraps(fn)  # LangGraph reads a node's signature to pass it the runtime
        def timed(*args: Any, **kwargs: Any) -> Any:
            counted = saver or getattr(self.local, "in_step", False)
            if step:  # only the worker's own steps: the tester's pytest run is no iteration of the loop
                counted = args[0].get("role") == "worker"
                self.local.in_step = counted
            started = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                if step:
                    self.local.in_step = False
                if counted:
                    with self.lock:
                        self.ms[label] += (time.perf_counter() - started) * 1000
                        self.calls[label] += 1

        return timed


@contextmanager
def breakdown_installed(breakdown: Breakdown) -> Iterator[None]:
    undo = []
    for module_name, attribute, label in (*STEP_PARTS, *((m, a, a) for m, a in STEPS)):
        owner: Any = importlib.import_module(module_name)
        *path, name = attribute.split(".")
        for part in path:
            owner = getattr(owner, part)
        if not hasattr(owner, name):
            continue
        original = getattr(owner, name)
        undo.append((owner, name, original))
        setattr(owner, name, breakdown.wrap(original, label, step=(module_name, attribute) in STEPS))
    try:
        yield
    finally:
        for owner, name, original in reversed(undo):
            setattr(owner, name, original)


def report_breakdown(breakdown: Breakdown) -> None:
    iterations = max(1, breakdown.calls["run_tools"])  # one tools step per iteration
    supersteps = max(1, breakdown.calls["checkpoint put (saver thread)"])  # one checkpoint per superstep
    print(
        f"\nwhere a worker iteration's time goes ({iterations} iterations; checkpoint rows: the mean of all "
        f"{supersteps} supersteps, x2)"
    )
    labels = [label for _, _, label in STEP_PARTS if label in breakdown.ms]
    width = max(len(label) for label in [*labels, "worker step (incl. model call)"])
    print(f"{'part':<{width}}  ms/iteration  calls/iteration")
    for label, name in (("worker step (incl. model call)", "work"), ("tools step", "run_tools")):
        print(f"{label:<{width}}  {breakdown.ms[name] / iterations:12.2f}")
    for label in sorted(labels, key=lambda k: -breakdown.ms[k]):
        share = 2 / supersteps if "saver thread" in label else 1 / iterations
        ms, calls = breakdown.ms[label] * share, breakdown.calls[label] * share
        print(f"  {label:<{width - 2}}  {ms:12.2f}  {calls:15.1f}")


@contextmanager
def threads_profiled() -> Iterator[list[cProfile.Profile]]:
    """A profiler in every thread started inside the block (LangGraph starts its executor per run)."""
    profilers: list[cProfile.Profile] = []

    def start(*_: Any) -> None:  # the first profile event of a new thread: hand it to its own profiler
        profiler = cProfile.Profile()
        profilers.append(profiler)
        profiler.enable()

    main = cProfile.Profile()
    profilers.append(main)
    threading.setprofile(start)
    main.enable()
    try:
        yield profilers
    finally:
        main.disable()
        threading.setprofile(None)


def merged_stats(profilers: list[cProfile.Profile]) -> pstats.Stats:
    stats = pstats.Stats(profilers[0])
    for profiler in profilers[1:]:
        stats.add(profiler)
    return stats
