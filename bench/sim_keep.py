"""Run the harness on chosen tasks and seeds against the SIMULATED model, as `slmcode eval --sim` does, and keep
each attempt's workspace (its .slmcode trace) for `slmcode trace`: what docs/bench/multifile.txt read its causes
from. Usage: python bench/sim_keep.py OUT PROFILE TASK[,TASK...] SEED[,SEED...]"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from slmcode.eval.runner import Job, run_job
from slmcode.eval.sim.profile import load_profile
from slmcode.eval.sim.server import SimServer
from slmcode.eval.suite import load_suite, select


def main(out: Path, profile_name: str, task_ids: list[str], seeds: list[int]) -> None:
    profile, suite = load_profile(profile_name), load_suite()
    for task_id in task_ids:
        task = select(suite, task_id=task_id)[0]
        for seed in seeds:
            with SimServer(task, profile, seed=seed, agent="harness") as sim:
                settings = {"base_url": sim.url, "model": profile.model, "request_retries": 0}
                attempt = run_job(Job(task, "harness", settings), 900, keep=out / f"s{seed}")
            row = {"task": task_id, "seed": seed, "solved": attempt.solved, "failure": attempt.failure}
            print(json.dumps(row | {"turns": attempt.turns, "signals": attempt.signals}), flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2], sys.argv[3].split(","), [int(s) for s in sys.argv[4].split(",")])
