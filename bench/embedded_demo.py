"""README's demo with the embedded model, N times: how often does SmolLM2-135M finish it, and how long a run takes.

Each run is README's main job on a fresh copy of examples/calculator ("Add a divide operation to calc/ops.py with
a test", no --base-url, so slmcode starts the embedded llama.cpp server), in its own process with a wall-time
cap. A run succeeds when its outcome is "done": every must criterion PASSED (a check the unchanged tree already
passes counts as UNVERIFIED) and QA passed. The table says, per run, the outcome line, the wall time, the files
the run changed on disk, and the worker's pack (tokens/budget, whether it held calc/ops.py).

Usage: python bench/embedded_demo.py [--runs 5] [--timeout 600]
Needs the `local` extra. Prints `uptime` first: on 2 shared cores the wall time mostly measures the neighbours.
Nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "calculator"
TASK = "Add a divide operation to calc/ops.py with a test"
ONE_RUN = """
import json, sys
from pathlib import Path
from slmcode import api
from slmcode.store.trace import TraceStore
from slmcode.trust import trust_workspace
trust_workspace(Path(sys.argv[2]))  # as README's demo does with `slmcode trust`: the example's test command applies
try:
    result = api.run(sys.argv[1], sys.argv[2])
    outcome, run_id = result.outcome, result.run_id
except Exception as exc:
    outcome, run_id = f"error: {type(exc).__name__}: {exc}", None
trace = TraceStore.for_workspace(sys.argv[2])
run_id = run_id or next((r.run_id for r in trace.runs()), None)  # a run that raised still has its trace
pack = trace.pack(run_id, "worker") if run_id else None
print(json.dumps({"outcome": outcome, "pack": f"{pack.tokens}/{pack.budget}" if pack else "-",
                  "ops_in_pack": bool(pack and "### calc/ops.py" in pack.text)}))
"""


def changed_files(repo: Path) -> list[str]:
    out = subprocess.run(["git", "status", "--porcelain"], cwd=repo, capture_output=True, text=True).stdout
    return sorted(line[3:] for line in out.splitlines() if not line[3:].startswith(".slmcode"))


def one_run(index: int, timeout: float) -> dict:
    with tempfile.TemporaryDirectory(prefix=f"slmcode-demo-{index}-") as tmp:
        repo = Path(tmp) / "calculator"
        shutil.copytree(EXAMPLE, repo, ignore=shutil.ignore_patterns(".slmcode", "__pycache__", ".pytest_cache"))
        shutil.copytree(EXAMPLE / ".slmcode" / "blocks", repo / ".slmcode" / "blocks")
        env = {
            **os.environ,
            "GIT_AUTHOR_NAME": "b",
            "GIT_AUTHOR_EMAIL": "b@b",
            "GIT_COMMITTER_NAME": "b",
            "GIT_COMMITTER_EMAIL": "b@b",
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
            "SLMCODE_HOME": str(Path(tmp) / "home"),
        }  # the run's trust of its copy stays out of ~/.slmcode
        for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "init"]):
            subprocess.run(["git", *args], cwd=repo, check=True, env=env)
        started = time.monotonic()
        try:
            done = subprocess.run(
                [sys.executable, "-c", ONE_RUN, TASK, str(repo)],
                capture_output=True,
                text=True,
                timeout=timeout,
                env=env,
            )
            row = (
                json.loads(done.stdout.strip().splitlines()[-1])
                if done.stdout.strip()
                else {"outcome": f"crashed: {done.stderr.strip().splitlines()[-1:]}", "pack": "-", "ops_in_pack": False}
            )
        except subprocess.TimeoutExpired:
            row = {"outcome": f"killed after {timeout:.0f} s", "pack": "-", "ops_in_pack": False}
        row["seconds"] = round(time.monotonic() - started, 1)
        row["files"] = changed_files(repo)
        return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=600.0, help="wall-time cap per run, seconds")
    args = parser.parse_args()
    print("uptime:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    rows = []
    for index in range(args.runs):
        row = one_run(index, args.timeout)
        rows.append(row)
        files = ", ".join(row["files"]) or "-"
        print(
            f"run {index + 1}: {row['seconds']:>7.1f} s  pack {row['pack']:>9} ops.py {row['ops_in_pack']!s:>5}  "
            f"files {files}  {row['outcome'][:160]}",
            flush=True,
        )
    done = sum(1 for r in rows if r["outcome"] == "done")
    walls = sorted(r["seconds"] for r in rows)
    print(f"success {done}/{len(rows)}; wall time median {walls[len(walls) // 2]:.1f} s, max {walls[-1]:.1f} s")


if __name__ == "__main__":
    main()
