"""What the OS sandbox costs per command: p50/p90 wall time of the same command run bare and inside bubblewrap,
and the share spent finding the protected folders (.git/.slmcode) before and after each command.

    python bench/sandbox.py [--runs 40] [--workspace DIR]

Prints one table; the machine's load is printed with it, since every figure moves with it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import time
from pathlib import Path

from slmcode.environment import ossandbox

COMMANDS = (["true"], ["ls", "-a"], ["git", "status", "--short"])


def timed(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def quantiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered) * 1000, ordered[int(len(ordered) * 0.9)] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--workspace", type=Path, default=Path(__file__).resolve().parents[1])
    args = parser.parse_args()
    ws = args.workspace.resolve()
    print(f"load {os.getloadavg()[0]:.2f}; sandbox: {ossandbox.status()}; workspace {ws}")
    started = time.perf_counter()
    jail = ossandbox.prepare(ws, writable=True, network=False)
    prepare_ms = (time.perf_counter() - started) * 1000
    walk = []
    for _ in range(args.runs):
        started = time.perf_counter()
        ossandbox.find_protected(ws)
        walk.append(time.perf_counter() - started)
    print(
        f"prepare (walk + policy) {prepare_ms:.1f} ms; one protected-folder refresh p50 {quantiles(walk)[0]:.1f} ms "
        f"({len(jail.protected)} found); a command refreshes twice"
    )
    print(f"{'command':<22} {'bare p50':>9} {'p90':>7} {'sandboxed p50':>14} {'p90':>7} {'added p50':>10}")
    for argv in COMMANDS:
        bare = [timed(argv, ws, jail.env) for _ in range(args.runs)]
        boxed = [timed(jail.argv(argv), ws, jail.env) for _ in range(args.runs)]
        (b50, b90), (s50, s90) = quantiles(bare), quantiles(boxed)
        print(f"{' '.join(argv):<22} {b50:>7.1f}ms {b90:>5.1f}ms {s50:>12.1f}ms {s90:>5.1f}ms {s50 - b50:>8.1f}ms")
    # What a ws_shell call pays in all: the jail prepared (protected index refreshed), the command, the undo check.
    whole = []
    for _ in range(args.runs):
        started = time.perf_counter()
        jail = ossandbox.prepare(ws, writable=True, network=False)
        subprocess.run(jail.argv(["true"]), cwd=ws, env=jail.env, check=False)
        jail.undo_new_protected()
        if hasattr(jail, "after_command"):  # the set-uid walk and scratch check (absent from older jails)
            jail.after_command()
        whole.append(time.perf_counter() - started)
    w50, w90 = quantiles(whole)
    print(f"{'prepare+true+undo':<22} {'':>9} {'':>7} {w50:>12.1f}ms {w90:>5.1f}ms")
    if hasattr(jail, "after_command"):
        after = []
        for _ in range(args.runs):
            started = time.perf_counter()
            jail.after_command()
            after.append(time.perf_counter() - started)
        print(f"of which after_command (set-uid walk of workspace and scratch) p50 {quantiles(after)[0]:.1f} ms")


if __name__ == "__main__":
    main()
