"""The harness's own cost per worker iteration, and what a run leaves in its checkpoint file.

A full `api.run` goes through the real compiled graph against tests/fake_llm (real HTTP, answers at once).
The worker is scripted to take --iterations cheap tool steps (ws_read / ws_list / ws_search, one edit), so
each iteration is: checkpoint, tools step (journal, tool, trace), checkpoint, worker step (pre-model hook,
compaction, tools bound, model call, trace). An iteration's cost is the time between two consecutive worker
"turn" events minus the model call's latency the trace recorded for it: everything but the model.
The model call's own latency is printed too: with fake_llm it is the client's and loopback HTTP cost (mostly
openai-python's request transform, which grows with the transcript). --breakdown times the parts of an
iteration (bench/overhead_parts.py); --profile N runs cProfile in every thread (the nodes run on LangGraph's).

--turns 10,40 runs the task at each length and compares what the runs stored (checkpoints, pending writes and
the conversation store): with the conversation out of the Send payload, bytes per turn stay constant.

Usage: python bench/overhead.py [--iterations 40 | --turns 10,40] [--runs 1] [--breakdown] [--profile N]
Target: p50 <= 30 ms per iteration on this machine. Nothing here asserts.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # tests.fake_llm and the scripted team live in the repository, not the package

from overhead_parts import Breakdown, breakdown_installed, merged_stats, report_breakdown, threads_profiled  # noqa: E402

from slmcode import api  # noqa: E402
from slmcode.nodes.prompts import SYSTEM  # noqa: E402
from slmcode.store.conversations import conversations_path  # noqa: E402
from slmcode.store.paths import CHECKPOINTS, state_dir  # noqa: E402
from slmcode.store.trace import TraceStore  # noqa: E402
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
    replies = [
        Reply(tool_calls=[tool_call("ws_read", path="calc/ops.py")]),
        Reply(
            tool_calls=[tool_call("ws_edit", path="calc/ops.py", old_str=MULTIPLY_END, new_str=MULTIPLY_END + DIVIDE)]
        ),
    ]
    replies += [Reply(tool_calls=[CHEAP_CALLS[i % len(CHEAP_CALLS)]]) for i in range(iterations - 2)]
    # The plan's focus files are ops.py and its test: the completeness gate wants each touched or named.
    return [*replies, Reply(content="Added divide to calc/ops.py; tests/test_ops.py needs no change.")]


def script(fake: FakeLLM, iterations: int) -> None:
    script_planning(fake)
    fake.on(SYSTEM["worker"], *worker_script(iterations))
    fake.on(
        SYSTEM["tester"],
        Reply(tool_calls=[tool_call("ws_shell", command="python -m pytest -q")]),
        Reply(content="Tests pass."),
    )


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def checkpoint_bytes(workspace: Path) -> dict[str, int]:
    """The checkpoint file on disk (with its WAL) and the serialized bytes SqliteSaver stored in it."""
    path = state_dir(workspace) / CHECKPOINTS
    on_disk = sum(p.stat().st_size for p in path.parent.glob(CHECKPOINTS + "*"))
    with closing(sqlite3.connect(path)) as conn:
        count, blobs, largest = conn.execute(
            "SELECT COUNT(*), SUM(LENGTH(checkpoint) + LENGTH(metadata)), MAX(LENGTH(checkpoint)) FROM checkpoints"
        ).fetchone()
        (writes,) = conn.execute("SELECT COALESCE(SUM(LENGTH(value)), 0) FROM writes").fetchone()
    store = conversations_path(workspace)
    messages = 0
    if store.exists():  # a run that never reached a worker has none
        with closing(sqlite3.connect(store)) as conn:
            (messages,) = conn.execute("SELECT COALESCE(SUM(LENGTH(message)), 0) FROM messages").fetchone()
    store_file = sum(p.stat().st_size for p in store.parent.glob(store.name + "*"))
    return {
        "file": on_disk,
        "checkpoints": count,
        "checkpoint_blobs": blobs,
        "largest": largest,
        "writes": writes,
        "store_messages": messages,
        "store_file": store_file,
    }


def one_run(iterations: int) -> dict[str, Any]:
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
        result = api.run(
            "Add a divide operation",
            repo,
            base_url=fake.url,
            model=MODEL,
            request_retries=0,
            on_event=on_event,
            **profile,
        )
        total = time.perf_counter() - started
        with TraceStore.for_workspace(repo) as trace:
            latencies = [
                e.data["latency_ms"]
                for e in trace.timeline(result.run_id)
                if e.kind == "model_call" and e.role == "worker"
            ]
        # Interval k runs from turn k to turn k+1, whose model call is call k+1 (index k: call 0 made turn 0's).
        gaps = [(b - a) * 1000 for a, b in itertools.pairwise(turns)]
        costs = [gap - latencies[k + 1] for k, gap in enumerate(gaps)]
        return {
            "outcome": result.outcome,
            "costs": costs,
            "model_ms": latencies[1 : len(gaps) + 1],
            "total_s": total,
            "bytes": checkpoint_bytes(repo),
            "turns": len(turns),
        }


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
        ("conversation store messages bytes", kib(size["store_messages"])),
        ("conversation store file (with WAL)", kib(size["store_file"])),
        ("stored bytes (checkpoints+writes+store)", kib(stored(size))),
    ]
    width = max(len(name) for name, _ in rows)
    print(f"{'figure':<{width}}  value")
    for name, value in rows:
        print(f"{name:<{width}}  {value}")


def stored(size: dict[str, int]) -> int:
    return size["checkpoint_blobs"] + size["writes"] + size["store_messages"]


def compare_turns(lengths: list[int], runs: int) -> None:
    """One table per length, then how the stored bytes grew from the shortest run to each longer one."""
    sizes = {}
    for n in lengths:
        print(f"\n== {n} turns ==")
        done = [one_run(n) for _ in range(runs)]
        report(done, n)
        sizes[n] = done[-1]["bytes"]
    base = lengths[0]
    print(f"\n{'turns':>6}  {'checkpoints+writes':>18}  {'store':>9}  {'stored':>9}  {'x ' + str(base) + ' turns':>10}")
    for n in lengths:
        size = sizes[n]
        print(
            f"{n:>6}  {kib(size['checkpoint_blobs'] + size['writes']):>18}  {kib(size['store_messages']):>9}  "
            f"{kib(stored(size)):>9}  {stored(size) / stored(sizes[base]):>9.2f}x"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=40, help="worker tool steps in the scripted task")
    parser.add_argument("--turns", default="", help="comma-separated task lengths to compare, e.g. 10,40")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--breakdown", action="store_true", help="also time the parts of an iteration (one run)")
    parser.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="N",
        help="also profile one run, every thread, and print its N costliest functions",
    )
    args = parser.parse_args()
    os.environ["PATH"] = python_on_path()  # the verify command's `python -m pytest` finds pytest
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    os.environ["SLMCODE_HOME"] = tempfile.mkdtemp()  # the figures must not depend on ~/.slmcode/config.yaml
    if args.turns:
        compare_turns([int(n) for n in args.turns.split(",")], args.runs)
    else:
        report([one_run(args.iterations) for _ in range(args.runs)], args.iterations)
    if args.breakdown:
        breakdown = Breakdown()
        with breakdown_installed(breakdown):
            one_run(args.iterations)
        report_breakdown(breakdown)
    if args.profile:
        with threads_profiled() as profilers:
            one_run(args.iterations)
        print()
        merged_stats(profilers).sort_stats("tottime").print_stats(args.profile)


if __name__ == "__main__":
    main()
