"""`slmcode eval --sim PROFILE`: the SIMULATED comparison end to end: resolve the profiles, run the grid, sum it
up per profile, and keep it all in a JSON report that says it is simulated."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from slmcode.eval.sim.compare import Outcome, cells, run_grid
from slmcode.eval.sim.profile import Profile, builtin_profiles, load_profile
from slmcode.eval.sim.table import profile_summary
from slmcode.eval.suite import EvalTask


def resolve_profiles(value: str) -> list[Profile]:
    """--sim all | NAME | PATH, or several joined by commas."""
    names = builtin_profiles() if value.strip() == "all" else [v.strip() for v in value.split(",") if v.strip()]
    return [load_profile(name) for name in names]


def simulate(
    profiles: Sequence[Profile],
    tasks: Sequence[EvalTask],
    *,
    seeds: int,
    compare: bool,
    ablate: Sequence[str],
    jobs: int,
    timeout: float,
    on_result: Callable[[Outcome], None],
    fallback: str = "",
    peers: Sequence[str] = (),
) -> tuple[list[Outcome], dict[str, Any]]:
    grid = cells(compare, ablate, fallback, peers)
    outcomes = run_grid(profiles, tasks, seeds, grid, jobs=jobs, timeout=timeout, on_result=on_result)
    summaries = {p.name: profile_summary(outcomes, p.name) for p in profiles}
    data = {
        "SIMULATED": True,
        "note": "a simulated small model (slmcode/eval/sim), not a real one: these figures measure the harness "
        "against the profile's error rates, not any model's skill",
        "finished": datetime.now(UTC).isoformat(),
        "seeds": seeds,
        "tasks": [t.id for t in tasks],
        "profiles": [asdict(p) for p in profiles],
        "cells": [c.name for c in grid],
        "summary": summaries,
        "fallback": fallback,
        "attempts": [
            {
                "profile": o.profile,
                "cell": o.cell.name,
                "seed": o.seed,
                "errors_made": dict(o.errors),
                "served": o.cost,
                **o.attempt.as_dict(),
            }
            for o in outcomes
        ],
    }
    return outcomes, data


def write_report(out_dir: Path, data: dict[str, Any]) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"sim-{datetime.now(UTC):%Y%m%d-%H%M%S}.json"
    path.write_text(json.dumps(data, indent=2) + "\n")
    return path
