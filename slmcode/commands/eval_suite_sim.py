"""A standard suite against the SIMULATED small model, once its items are laid out as the simulator's tasks
(eval/suites/polyglot_sim.py, eval/suites/swebench_sim.py): a task whose reference fails its own hidden tests
here is skipped with the reason, every other one goes through the same grid as the bundled suite's
(eval/sim/measure.py), and the report says it is simulated. `--compare` on a standard suite puts aider's own
protocol beside the plain loop: the comparison the published tables invite."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from slmcode.eval.sim.compare import Outcome
from slmcode.eval.sim.profile import Profile
from slmcode.eval.suite import EvalTask


def with_aider(compare: bool, peers: Sequence[str]) -> list[str]:
    return list(dict.fromkeys([*(["aider"] if compare else []), *peers]))


def simulate_laid(
    profiles: Sequence[Profile],
    laid: dict[str, EvalTask],
    skipped: dict[str, str],
    *,
    compare: bool,
    peers: Sequence[str],
    seeds: int,
    jobs: int,
    timeout: float,
    ablate: Sequence[str] = (),
) -> tuple[list[EvalTask], list[Outcome], dict[str, Any]]:
    """`laid` maps each item's id to its task; an item whose reference fails here joins `skipped`. Returns the
    tasks measured, every outcome and the report's data."""
    from slmcode.commands.eval import _progress
    from slmcode.eval.sim.measure import simulate
    from slmcode.eval.sim.mutants import reference_fails

    runnable = []
    for item, task in laid.items():  # a reference that fails its own tests here (a missing package) measures nothing
        if why := reference_fails(task):
            skipped[item] = why
        else:
            runnable.append(task)
    cells = 1 + compare + len(peers) + len(ablate)
    bar, on_result = _progress(len(profiles) * cells * len(runnable) * seeds)
    with bar:
        outcomes, data = simulate(
            profiles,
            runnable,
            seeds=seeds,
            compare=compare,
            ablate=ablate,
            peers=peers,
            jobs=jobs,
            timeout=timeout,
            on_result=lambda o: on_result(o.attempt),
        )
    data["skipped"] = skipped
    return runnable, outcomes, data


def say_skipped(say: Any, measured: int, seeds: int, skipped: dict[str, str], noun: str, path: Path) -> None:
    say(f"measured {measured} {noun}(s) x {seeds} seed(s); skipped {len(skipped)}")
    for item, why in sorted(skipped.items()):
        say(f"skipped {item}: {why}")
    say(f"report (SIMULATED): {path}")


def run_swebench_sim(
    value: str,
    source: Path | None,
    *,
    repos: Path | None,
    compare: bool,
    peers: list[str],
    seeds: int,
    task: str | None,
    tasks: int | None,
    jobs: int,
    timeout: float,
    as_json: bool,
    out: Path,
) -> None:
    """`slmcode eval --suite swebench FILE --repos DIR --sim PROFILE [--compare] [--peer ...]`: resolve rate,
    empty-patch and stuck-in-loop rates per cell, as the SWE-Gym paper reports zero-shot agents."""
    import shutil

    from slmcode.commands.common import console, print_json
    from slmcode.errors import SlmcodeError
    from slmcode.eval.sim.measure import resolve_profiles, write_report
    from slmcode.eval.sim.table import render
    from slmcode.eval.suites.swebench import load_instances
    from slmcode.eval.suites.swebench_figures import render_swe, swe_summary
    from slmcode.eval.suites.swebench_sim import lay_out_all

    if source is None:
        raise SlmcodeError("--suite swebench needs FILE.jsonl (SWE-bench instances, one JSON object a line)")
    if repos is None or not repos.is_dir():
        raise SlmcodeError("--suite swebench needs --repos DIR: the folder holding your clones (DIR/<owner>__<name>)")
    profiles = resolve_profiles(value)
    peers = with_aider(compare, peers)
    instances = load_instances(source)
    if task:
        wanted = {t.strip() for t in task.split(",") if t.strip()}
        instances = [i for i in instances if i.instance_id in wanted or i.repo in wanted]
        if not instances:
            raise SlmcodeError(f"--task {task}: no such instance or repository in {source}")
    elif tasks is not None:
        instances = instances[:tasks]
    root, laid, skipped = lay_out_all(instances, repos)
    try:
        runnable, outcomes, data = simulate_laid(
            profiles, laid, skipped, compare=compare, peers=peers, seeds=seeds, jobs=jobs, timeout=timeout
        )
    finally:
        shutil.rmtree(root, ignore_errors=True)
    data["suite"] = "swebench"
    data["instances"] = {i: t.id for i, t in laid.items() if t in runnable}
    data["swebench"] = {p.name: swe_summary(outcomes, p.name) for p in profiles}
    path = write_report(out, data)
    if as_json:
        print_json(data | {"report": str(path)})
        return
    say = lambda text: console.print(text, markup=False, highlight=False, soft_wrap=True)  # noqa: E731
    say("SIMULATED small model on SWE-bench instances: not a real model's figures.")
    say(render_swe(data["swebench"]))
    say(render(data["summary"]))
    say_skipped(say, len(runnable), seeds, skipped, "instance", path)
