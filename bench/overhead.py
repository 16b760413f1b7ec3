"""The harness's own cost per worker iteration, and what a run leaves in its checkpoint file.

A full `api.run` goes through the real compiled graph against tests/fake_llm (real HTTP, answers at once).
The worker is scripted to take --iterations cheap tool steps (ws_read / ws_list / ws_search, one edit), so
each iteration is: checkpoint, tools step (journal, tool, trace), checkpoint, worker step (pre-model hook,
compaction, tools bound, model call, trace). An iteration's cost is the time between two consecutive worker
"turn" events minus the model call's latency the trace recorded for it: everything but the model.
The model call's own latency is printed too: with fake_llm it is the client's and loopback HTTP cost.

Usage: python bench/overhead.py [--iterations 40] [--runs 1] [--breakdown] [--profile N]
Target: p50 <= 30 ms per iteration on this machine. Nothing here asserts.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import itertools
import os
import pstats
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # tests.fake_llm and the scripted team live in the repository, not the package

from slmcode import api  # noqa: E402
from slmcode.graph.checkpoint import CHECKPOINT_FILE  # noqa: E402
from slmcode.memory.files import state_dir  # noqa: E402
from slmcode.memory.trace import TraceStore  # noqa: E402
from slmcode.nodes.prompts import SYSTEM  # noqa: E402
from tests.fake_llm import FakeLLM, Reply, tool_call  # noqa: E402
from tests.graph.scenario import make_repo, python_on_path, script_planning  # noqa: E402

MODEL = "qwen2.5-coder:7b"
DIVIDE = '''

def divide(a: float, b: float) -> float:
    """Return a divided by b."""
    return a / b
'''
MULTIPLY_END = '    """Return the product of a and b."""\n    return a * b\n'
CHEAP_CALLS = (
    tool_call("ws_read", path="calc/ops.py"),
    tool_call("ws_list", path="."),
    tool_call("ws_read", path="tests/test_ops.py"),
    tool_call("ws_search", pattern="def "),
    tool_call("ws_read", path="calc/cli.py"),
)


def worker_script(iterations: int) -> list[Reply]:
    """`iterations` tool steps (one of them the real edit, so the run ends done), then the summary."""
    replies = [Reply(tool_calls=[tool_call("ws_read", path="calc/ops.py")]),
               Reply(tool_calls=[tool_call("ws_edit", path="calc/ops.py", old_str=MULTIPLY_END,
                                           new_str=MULTIPLY_END + DIVIDE)])]
    replies += [Reply(tool_calls=[CHEAP_CALLS[i % len(CHEAP_CALLS)]]) for i in range(iterations - 2)]
    return [*replies, Reply(content="Added divide.")]


def script(fake: FakeLLM, iterations: int) -> None:
    script_planning(fake)
    fake.on(SYSTEM["worker"], *worker_script(iterations))
    fake.on(SYSTEM["tester"], Reply(tool_calls=[tool_call("ws_shell", command="python -m pytest -q")]),
            Reply(content="Tests pass."))


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def checkpoint_bytes(workspace: Path) -> dict[str, int]:
    """The checkpoint file on disk (with its WAL) and the serialized bytes SqliteSaver stored in it."""
    path = state_dir(workspace) / CHECKPOINT_FILE
    on_disk = sum(p.stat().st_size for p in path.parent.glob(CHECKPOINT_FILE + "*"))
    with closing(sqlite3.connect(path)) as conn:
        count, blobs, largest = conn.execute(
            "SELECT COUNT(*), SUM(LENGTH(checkpoint) + LENGTH(metadata)), MAX(LENGTH(checkpoint)) FROM checkpoints"
        ).fetchone()
        (writes,) = conn.execute("SELECT COALESCE(SUM(LENGTH(value)), 0) FROM writes").fetchone()
    return {"file": on_disk, "checkpoints": count, "checkpoint_blobs": blobs, "largest": largest, "writes": writes}


# Where an iteration's time goes: (module, attribute, label). Wrapped for --breakdown only; a name a later
# refactor removed is skipped. Checkpoint writes run on LangGraph's background thread, overlapping the steps.
STEP_PARTS = (
    ("slmcode.compact.hook", "request_view", "pre-model hook (request view)"),
    ("slmcode.nodes.worker", "compact_transcript", "compaction ladder"),
    ("slmcode.nodes.worker", "chat_model", "chat model built"),
    ("slmcode.nodes.worker", "make_tools", "tool set built"),
    ("slmcode.nodes.worker", "repair_tool_calls", "tool-call repair"),
    ("slmcode.nodes.worker", "run_tool_call", "the tool itself"),
    ("slmcode.memory.journal", "recorded", "journal lookup"),
    ("slmcode.memory.journal", "record", "journal write"),
    ("slmcode.nodes.worker", "discover_skills", "skills discovered"),
    ("slmcode.nodes.worker", "quality_of", "quality commands"),
    ("slmcode.nodes.worker", "files_read", "transcript scan"),
    ("slmcode.memory.trace", "TraceStore.record_event", "trace writes (events, calls)"),
    ("langgraph.checkpoint.sqlite", "SqliteSaver.put", "checkpoint put (background)"),
    ("langgraph.checkpoint.sqlite", "SqliteSaver.put_writes", "checkpoint writes (background)"),
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
        background = "background" in label

        @functools.wraps(fn)  # LangGraph reads a node's signature to pass it the runtime
        def timed(*args: Any, **kwargs: Any) -> Any:
            counted = background or getattr(self.local, "in_step", False)
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
    import importlib

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


def one_run(iterations: int, profiler: cProfile.Profile | None) -> dict[str, Any]:
    """Run the scripted task once; return the per-iteration costs, model latencies and checkpoint sizes."""
    with tempfile.TemporaryDirectory() as tmp, FakeLLM() as fake:
        repo = make_repo(Path(tmp))
        script(fake, iterations)
        turns: list[float] = []

        def on_event(event: dict[str, Any]) -> None:
            if event.get("kind") == "turn" and event.get("role") == "worker":
                turns.append(time.perf_counter())

        profile = {"model_profiles": {"qwen2.5-coder": {"max_turns": iterations + 5}}}
        started = time.perf_counter()
        if profiler:
            profiler.enable()
        result = api.run("Add a divide operation", repo, base_url=fake.url, model=MODEL, request_retries=0,
                         on_event=on_event, **profile)
        if profiler:
            profiler.disable()
        total = time.perf_counter() - started
        with TraceStore.for_workspace(repo) as trace:
            latencies = [e.data["latency_ms"] for e in trace.timeline(result.run_id)
                         if e.kind == "model_call" and e.role == "worker"]
        # Interval k runs from turn k to turn k+1, whose model call is call k+1 (index k: call 0 made turn 0's).
        gaps = [(b - a) * 1000 for a, b in itertools.pairwise(turns)]
        costs = [gap - latencies[k + 1] for k, gap in enumerate(gaps)]
        return {"outcome": result.outcome, "costs": costs, "model_ms": latencies[1:len(gaps) + 1],
                "total_s": total, "bytes": checkpoint_bytes(repo), "turns": len(turns)}


def kib(n: int) -> str:
    return f"{n / 1024:,.0f} KiB"


def report(runs: list[dict[str, Any]], iterations: int) -> None:
    costs = [c for r in runs for c in r["costs"]]
    model = [m for r in runs for m in r["model_ms"]]
    size = runs[-1]["bytes"]
    rows = [
        ("worker iterations measured", f"{len(costs)} ({len(runs)} run(s) of {iterations})"),
        ("harness cost per iteration p50", f"{statistics.median(costs):.1f} ms   (target <= 30 ms)"),
        ("harness cost per iteration p95", f"{percentile(costs, 0.95):.1f} ms"),
        ("harness cost, first vs last 5", f"{statistics.mean(costs[:5]):.1f} -> {statistics.mean(costs[-5:]):.1f} ms"),
        ("model call (fake_llm, client+HTTP) p50", f"{statistics.median(model):.1f} ms"),
        ("whole run wall time", f"{statistics.median(r['total_s'] for r in runs):.2f} s"),
        ("outcome", runs[-1]["outcome"]),
        ("checkpoint file per run (with WAL)", kib(size["file"])),
        ("checkpoints per run", str(size["checkpoints"])),
        ("serialized checkpoint bytes per run", kib(size["checkpoint_blobs"])),
        ("largest single checkpoint", kib(size["largest"])),
        ("pending writes bytes per run", kib(size["writes"])),
    ]
    width = max(len(name) for name, _ in rows)
    print(f"{'figure':<{width}}  value")
    for name, value in rows:
        print(f"{name:<{width}}  {value}")


def report_breakdown(breakdown: Breakdown) -> None:
    iterations = max(1, breakdown.calls["run_tools"])  # one tools step per iteration
    supersteps = max(1, breakdown.calls["checkpoint put (background)"])  # one checkpoint per superstep
    print(f"\nwhere a worker iteration's time goes ({iterations} iterations; checkpoint rows: the mean of all "
          f"{supersteps} supersteps, x2)")
    labels = [label for _, _, label in STEP_PARTS if label in breakdown.ms]
    width = max(len(label) for label in [*labels, "worker step (incl. model call)"])
    print(f"{'part':<{width}}  ms/iteration  calls/iteration")
    for label, name in (("worker step (incl. model call)", "work"), ("tools step", "run_tools")):
        print(f"{label:<{width}}  {breakdown.ms[name] / iterations:12.2f}")
    for label in sorted(labels, key=lambda k: -breakdown.ms[k]):
        share = 2 / supersteps if "background" in label else 1 / iterations
        ms, calls = breakdown.ms[label] * share, breakdown.calls[label] * share
        print(f"  {label:<{width - 2}}  {ms:12.2f}  {calls:15.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=40, help="worker tool steps in the scripted task")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--breakdown", action="store_true", help="also time the parts of an iteration (one run)")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="also profile the last run and print its N costliest functions (cumulative)")
    args = parser.parse_args()
    os.environ["PATH"] = python_on_path()  # the verify command's `python -m pytest` finds pytest
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    os.environ["SLMCODE_HOME"] = tempfile.mkdtemp()  # the figures must not depend on ~/.slmcode/config.yaml
    runs = [one_run(args.iterations, None) for _ in range(args.runs)]
    report(runs, args.iterations)
    if args.breakdown:
        breakdown = Breakdown()
        with breakdown_installed(breakdown):
            one_run(args.iterations, None)
        report_breakdown(breakdown)
    if args.profile:
        profiler = cProfile.Profile()
        one_run(args.iterations, profiler)
        print()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(args.profile)


if __name__ == "__main__":
    main()
