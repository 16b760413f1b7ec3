"""Where a SIMULATED attempt's prompt tokens go: requests, prompt tokens sent and tokens read past the server's
cache (sim/cost.py), per role the simulated server played, summed over every attempt of each cell.

The role is what the server read the request as (sim/server.py's log: worker, corrector, explorer, the answer
schema's title for structured roles, text for the compactor's asks). Nothing here is a test.

    .venv/bin/python bench/tokens_by_role.py --sim 7b --tasks 8 --seeds 3 [--compare] [--out FILE]
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from collections import defaultdict
from pathlib import Path
from typing import Any

from slmcode.eval.sim.compare import cells, run_grid
from slmcode.eval.sim.measure import resolve_profiles
from slmcode.eval.sim.server import SimServer
from slmcode.eval.suite import load_suite, missing_toolchain, select

FIGURES = ("requests", "prompt_tokens", "read_tokens")
_lock = threading.Lock()
_tally: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: dict.fromkeys(FIGURES, 0))


def _counting(served: Any) -> Any:
    def counted(self: SimServer, request: Any) -> Any:
        before = (self.meter.cost.requests, self.meter.cost.prompt_tokens, self.meter.cost.read_tokens)
        reply = served(self, request)
        role = self.log[-1].role if self.log else "?"
        after = (self.meter.cost.requests, self.meter.cost.prompt_tokens, self.meter.cost.read_tokens)
        with _lock:
            row = _tally[(self.agent, role)]
            for key, old, new in zip(FIGURES, before, after, strict=True):
                row[key] += new - old
        return reply

    return counted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sim", default="7b")
    parser.add_argument("--tasks", type=int, default=8)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--compare", action="store_true")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    SimServer.served = _counting(SimServer.served)  # type: ignore[method-assign]
    tasks = [t for t in select(load_suite(), count=args.tasks) if not missing_toolchain(t.language)]  # as eval
    outcomes = run_grid(
        resolve_profiles(args.sim),
        tasks,
        args.seeds,
        cells(args.compare, []),
        jobs=args.jobs,
        timeout=900,
        on_result=lambda _: None,
    )
    solved: dict[str, int] = defaultdict(int)
    attempts: dict[str, int] = defaultdict(int)
    for o in outcomes:
        attempts[o.cell.agent] += 1
        solved[o.cell.agent] += int(o.attempt.solved)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    lines = [
        f"$ bench/tokens_by_role.py --sim {args.sim} --tasks {args.tasks} --seeds {args.seeds}"
        + (" --compare" if args.compare else ""),
        f"SIMULATED, profile {args.sim}; load average {load}; tasks: {', '.join(sorted({o.task for o in outcomes}))}",
        "per attempt; tokens are chars/4 as the simulated server counts them; read: past the cached prefix",
        "",
        f"{'cell':<10}{'role':<14}{'requests':>9}{'prompt tok':>12}{'read tok':>10}",
    ]
    for (agent, role), row in sorted(_tally.items()):
        n = max(1, attempts[agent])
        lines.append(
            f"{agent:<10}{role:<14}{row['requests'] / n:>9.1f}{row['prompt_tokens'] / n:>12,.0f}"
            f"{row['read_tokens'] / n:>10,.0f}"
        )
    lines.append("")
    lines += [f"{agent}: {solved[agent]}/{attempts[agent]} solved" for agent in sorted(attempts)]
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
