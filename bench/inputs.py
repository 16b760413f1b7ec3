"""Awkward-input benchmark: what ws_search and ws_read cost on inputs that used to hang or load everything.

Each case runs in its own process (a backtracking regex cannot be interrupted inside the process: it holds
the GIL) with a timeout, and reports wall time and the process's peak resident memory. Run it against an
older checkout with PYTHONPATH=OLD_TREE to get the "before" column. Nothing here asserts.

Usage: python bench/inputs.py [--big-mb 300] [--timeout 30]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = """
import json, resource, sys, time
from pathlib import Path
from slmcode.config import Settings
from slmcode.tools.context import ToolContext
from slmcode.tools.workspace import ws_read, ws_search
ctx = ToolContext(workspace=Path(sys.argv[1]), settings=Settings())
tool, args = sys.argv[2], json.loads(sys.argv[3])
start = time.perf_counter()
out = (ws_read if tool == "ws_read" else ws_search)(ctx, **args)
ms = (time.perf_counter() - start) * 1000
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"ms": ms, "rss_mb": rss, "out": out[:70]}))
"""


def run_case(workspace: Path, tool: str, args: dict[str, object], timeout: float) -> str:
    # cwd beside the workspace: with `-c`, sys.path[0] is the cwd, which must not shadow PYTHONPATH's checkout.
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(workspace), tool, json.dumps(args)],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=workspace.parent,
        )
    except subprocess.TimeoutExpired:
        return f"killed after {timeout:.0f} s"
    if done.returncode != 0:
        return f"failed ({(time.perf_counter() - start):.1f} s): {done.stderr.strip().splitlines()[-1][:60]}"
    result = json.loads(done.stdout)
    return f"{result['ms']:9.1f} ms  {result['rss_mb']:7.1f} MB  {result['out']!r}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--big-mb", type=int, default=300)
    parser.add_argument("--timeout", type=float, default=30)
    options = parser.parse_args()
    repo = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "evil.txt").write_text("a" * 40 + "b\n")
        with (work / "bundle.min.js").open("wb") as handle:
            for _ in range(options.big_mb):
                handle.write(b"x" * (1 << 20))
        cases = [
            ("ws_search (a+)+$ on a 41-char line", work, "ws_search", {"pattern": "(a+)+$", "path": "evil.txt"}),
            (f"ws_read a {options.big_mb} MB one-line file", work, "ws_read", {"path": "bundle.min.js"}),
            (f"ws_search a tree with a {options.big_mb} MB file", work, "ws_search", {"pattern": "zzz"}),
            (r"ws_search 'def \w+\(' over slmcode/", repo, "ws_search", {"pattern": r"def \w+\(", "path": "slmcode"}),
        ]
        print(f"{'case':45} {'wall':>12}  {'peak RSS':>10}  output")
        for name, workspace, tool, args in cases:
            print(f"{name:45} {run_case(workspace, tool, args, options.timeout)}")


if __name__ == "__main__":
    main()
