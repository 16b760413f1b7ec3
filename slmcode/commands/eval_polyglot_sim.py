"""`slmcode eval --suite polyglot DIR --sim PROFILE [--compare] [--ablate LEVERS]`: Aider's polyglot exercises
against the SIMULATED small model, laid out as the simulator's tasks (eval/suites/polyglot_sim.py), reported as aider
reports them: pass_1, pass_2 and the per-language table (eval/sim/passes.py). An exercise whose language has
no toolchain here, or whose example solution fails its own tests here, is skipped with the reason."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from slmcode.commands.common import console, print_json
from slmcode.errors import SlmcodeError


def _narrow(exercises: list[Any], task: str | None, tasks: int | None) -> list[Any]:
    if task:
        wanted = {t.strip() for t in task.split(",") if t.strip()}
        chosen = [e for e in exercises if e.id in wanted or e.language in wanted]
        if not chosen:
            raise SlmcodeError(f"--task {task}: no such exercise or language (ids look like python/bowling)")
        return chosen
    if tasks is None:
        return exercises
    groups: dict[str, list[Any]] = {}
    for ex in exercises:
        groups.setdefault(ex.language, []).append(ex)
    spread: list[Any] = []
    while len(spread) < min(tasks, len(exercises)):
        for queue in groups.values():
            if queue and len(spread) < tasks:
                spread.append(queue.pop(0))
    return spread


def run_polyglot_sim(
    value: str,
    source: Path | None,
    *,
    compare: bool,
    peers: list[str],
    tries: int,
    seeds: int,
    task: str | None,
    tasks: int | None,
    jobs: int,
    timeout: float,
    as_json: bool,
    out: Path,
    ablate: str | None = None,
) -> None:
    from slmcode.commands.eval_suite_sim import say_skipped, simulate_laid, with_aider
    from slmcode.eval.sim.compare import parse_ablate
    from slmcode.eval.sim.measure import resolve_profiles, write_report
    from slmcode.eval.sim.passes import pass_summary, render_passes
    from slmcode.eval.sim.table import render
    from slmcode.eval.suites.polyglot import load_polyglot, missing_toolchain
    from slmcode.eval.suites.polyglot_sim import lay_out_all

    if source is None:
        raise SlmcodeError("--suite polyglot needs DIR (a checkout of Aider's polyglot-benchmark)")
    if not 1 <= tries <= 2:
        raise SlmcodeError(f"--tries: 1 or 2 (aider's protocol), got {tries}")
    profiles, levers = resolve_profiles(value), parse_ablate(ablate)
    peers = with_aider(compare, peers)
    exercises = load_polyglot(source)
    skipped = {e.id: why for e in exercises if (why := missing_toolchain(e.language))}
    chosen = _narrow([e for e in exercises if e.id not in skipped], task, tasks)
    root, laid, unpaired = lay_out_all(chosen, tries)
    try:
        skipped |= unpaired
        by_id = dict(zip([e.id for e in chosen if e.id not in unpaired], laid, strict=True))
        runnable, outcomes, data = simulate_laid(
            profiles,
            by_id,
            skipped,
            compare=compare,
            peers=peers,
            seeds=seeds,
            jobs=jobs,
            timeout=timeout,
            ablate=levers,
        )
    finally:
        shutil.rmtree(root, ignore_errors=True)
    language = {t.id: t.language for t in runnable}
    data["suite"] = "polyglot"
    data["tries"] = tries
    data["passes"] = {p.name: pass_summary(outcomes, p.name, language) for p in profiles}
    path = write_report(out, data)
    if as_json:
        print_json(data | {"report": str(path)})
        return
    say = lambda text: console.print(text, markup=False, highlight=False, soft_wrap=True)  # noqa: E731
    say("SIMULATED small model on Aider's polyglot exercises: not a real model's figures.")
    say(render_passes(data["passes"]))
    say(render(data["summary"]))
    say_skipped(say, len(runnable), seeds, skipped, "exercise", path)
