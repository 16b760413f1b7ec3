"""Figures for the knowledge flywheel and the building blocks: how long each step a run takes costs.

    /work/venv/bin/python bench/flywheel.py [WORKSPACE]

Prints one table: median milliseconds over repeated calls, on WORKSPACE (default: this repository) for
detection and composition, and on a scratch folder for the memory writes.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from slmcode.blocks.compose import resolve_pipeline
from slmcode.blocks.detect import detect_pack
from slmcode.blocks.discovery import discover_blocks
from slmcode.blocks.schema import PackBlock
from slmcode.config import Settings
from slmcode.memory.flywheel import read_memory, record_learning
from slmcode.memory.reuse import decide_explore

REPEAT = 20


def median_ms(step: Callable[[int], object], repeat: int = REPEAT) -> float:
    times = []
    for i in range(repeat):
        start = time.perf_counter()
        step(i)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    workspace = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1]
    env = {"SLMCODE_HOME": tempfile.mkdtemp()}
    catalog = discover_blocks(workspace, env)
    packs = [b.block for b in catalog.of_kind("pack") if isinstance(b.block, PackBlock)]
    rows = [
        ("discover_blocks (all layers)", median_ms(lambda _: discover_blocks(workspace, env))),
        ("detect_pack (13 packs)", median_ms(lambda _: detect_pack(workspace, packs))),
        ("resolve_pipeline", median_ms(lambda _: resolve_pipeline(workspace, Settings(), env))),
    ]
    with tempfile.TemporaryDirectory() as scratch:

        def learn(i: int) -> None:
            record_learning(
                scratch,
                run_id=f"run-{i}",
                query="fix the csv parser",
                lessons=[f"lesson {i}"],
                touched=[f"src/m{i}.py", "src/csv_parser.py"],
                conventions=[(f"convention {i % 3}", "d", "body")],
                summary="done",
            )

        rows.append(("record_learning (5 files, fsync each)", median_ms(learn)))
        rows.append(("read_memory", median_ms(lambda _: read_memory(scratch))))
        rows.append(("decide_explore", median_ms(lambda _: decide_explore(scratch, "csv parser", {}))))
    detection = detect_pack(workspace, packs)
    print(f"workspace: {workspace}  (pack: {detection.chosen}; median of {REPEAT} calls)")
    print(f"{'step':42} {'ms':>8}")
    for name, ms in rows:
        print(f"{name:42} {ms:8.2f}")


if __name__ == "__main__":
    main()
