"""`slmcode eval --sim PROFILE`: the SIMULATED small model's comparison table (slmcode/eval/sim): the harness, the
plain loop (--compare), the peer protocols (--peer) and the harness with each lever off (--ablate), over --seeds
seeds per task."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from slmcode.commands.common import console, print_json


def run_sim(
    value: str,
    chosen: list[Any],
    *,
    compare: bool,
    ablate: str | None,
    seeds: int,
    jobs: int,
    timeout: float,
    as_json: bool,
    out: Path,
    fallback: str | None = None,
    peers: list[str] | None = None,
) -> None:
    """Every profile x (harness, plain loop, harness minus each lever, harness + fallback) x task x seed, then the
    table."""
    from slmcode.commands.eval import _progress
    from slmcode.eval.sim.compare import parse_ablate
    from slmcode.eval.sim.measure import resolve_profiles, simulate, write_report
    from slmcode.eval.sim.table import render
    from slmcode.eval.suite import missing_toolchain

    profiles, levers = resolve_profiles(value), parse_ablate(ablate)
    if fallback:
        resolve_profiles(fallback)  # an unknown profile is one clear line before anything runs
    skipped = {t.id: why for t in chosen if (why := missing_toolchain(t.language))}
    runnable = [t for t in chosen if t.id not in skipped]
    peers = peers or []
    rows = 1 + compare + len(peers) + len(levers) + bool(fallback)
    bar, on_result = _progress(len(profiles) * rows * len(runnable) * seeds)
    with bar:
        _, data = simulate(
            profiles,
            runnable,
            seeds=seeds,
            compare=compare,
            ablate=levers,
            jobs=jobs,
            timeout=timeout,
            on_result=lambda o: on_result(o.attempt),
            fallback=fallback or "",
            peers=peers,
        )
    data["skipped"] = skipped
    path = write_report(out, data)
    if as_json:
        print_json(data | {"report": str(path)})
        return
    say = lambda text: console.print(text, markup=False, highlight=False, soft_wrap=True)  # noqa: E731
    say("SIMULATED small model: these figures measure the harness against simulated errors, not a real model.")
    say(render(data["summary"]))
    say(f"measured {len(runnable)} task(s): {', '.join(t.id for t in runnable) or 'none'}")
    for task_id, why in skipped.items():
        say(f"skipped {task_id}: {why}")
    say(f"report (SIMULATED): {path}")
