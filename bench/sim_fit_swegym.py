"""Fit a SIMULATED profile's empty-patch and stuck-in-loop rates to SWE-Gym's zero-shot rows, through the plain
loop cell (one model with native tool calls until its first text answer: the closest protocol here to SWE-Gym's
zero-shot OpenHands agent, a plain tool loop).

The rows: Pan et al., "Training Software Engineering Agents and Verifiers with SWE-Gym" (arXiv 2412.21139), Table
3, zero-shot columns, Qwen-2.5-Coder-Instruct under OpenHands at temperature 0, as printed in the paper PDF of
github.com/SWE-Gym/SWE-Gym (assets/paper.pdf, commit 9b2ced6, 2024-12-23). Empty Patch is the share of
trajectories that edit no code, Stuck in Loop the share whose last three turns repeat the exact same action.

rates.stop_without_edit (the chance per step before its first edit that it stops, saying it is done) is fitted to
the empty-patch rate (no file changed at the end), by halving its interval on the same (task, seed) pairs: the
simulator's draws are common random numbers keyed by (task, seed, decision), so a rate moved up flips the same
attempts each time and the estimate moves smoothly. The stuck state's entry, rates.repeat_after_error (the chance
it sends a failed call again; mind.stuck_stay then keeps it there), is held, and the stuck-in-loop rate (counted as
swebench_figures counts it: the same call with the same arguments LOOP_REPEATS times in a row) is measured at the
fitted value and with the entry raised (STUCK_SCAN): a first fit of both in turn (this script's first commit)
found the stuck figure reaches a row's only where the empty patch overshoots its own, since here a model stuck
repeating a failed call before its first edit never edits. The floor (both values 0) says what else leaves an
attempt empty. The fit's runs are the plain loop in this process with no grading (neither figure needs
the hidden tests; an attempt in its own process costs ~15 s here); the check at the fitted values is the plain
loop cell itself (compare.run_grid: its own process per attempt, graded), with more seeds, and gives the figures.

    python bench/sim_fit_swegym.py --profiles 7b,14b,32b --split verified --seeds 2 --final-seeds 6 \
        [--tasks py-stock] [--jobs 3] [--cell-check] [--out docs/bench/sim_swegym.txt]

Resolve rate and average turns are printed beside the row, not fitted: skill is the profile's (32b's is fitted
to aider's polyglot row; 7b's and 14b's are assumed) and the tasks here are not SWE-bench's.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from slmcode.eval.sim.compare import Cell, Outcome, run_grid
from slmcode.eval.sim.profile import Profile, load_profile
from slmcode.eval.sim.server import SimServer
from slmcode.eval.sim.stats import wilson
from slmcode.eval.suite import EvalTask, changed_files, copy_repo, load_suite
from slmcode.eval.suites.swebench_figures import stuck
from slmcode.eval.taxonomy import LOOP_REPEATS

SOURCE = (
    "SWE-Gym (Pan et al., arXiv 2412.21139) Table 3, zero-shot, Qwen-2.5-Coder-Instruct + OpenHands, t=0 "
    "(paper PDF in github.com/SWE-Gym/SWE-Gym assets/paper.pdf, commit 9b2ced6)"
)
# split -> (instances, {profile: (size, empty patch %, stuck in loop %, avg turns, resolve rate %)})
ROWS: dict[str, tuple[int, dict[str, tuple[str, float, float, float, float]]]] = {
    "lite": (
        300,
        {
            "7b": ("7B", 40.3, 47.0, 20.3, 1.0),
            "14b": ("14B", 49.7, 31.7, 23.2, 2.7),
            "32b": ("32B", 27.0, 16.7, 15.5, 3.0),
        },
    ),
    "verified": (
        500,
        {
            "7b": ("7B", 45.8, 39.6, 21.9, 1.8),
            "14b": ("14B", 44.9, 32.1, 25.5, 4.0),
            "32b": ("32B", 9.5, 29.4, 24.6, 7.0),
        },
    ),
}
SPLIT_NAMES = {"lite": "SWE-Bench Lite", "verified": "SWE-Bench Verified"}
STUCK_SCAN = (0.5, 1.0)  # repeat_after_error values the stuck figure is measured at, after the fit
CHECK_SEED = 1000  # the check's seeds start here, apart from the fit's 0..seeds-1


def band(p: float, n: int) -> float:
    """A published share's 95% half-width from its n instances (binomial)."""
    return 1.96 * math.sqrt(p * (1 - p) / n)


@dataclass
class Figures:
    n: int
    empty: int
    stuck: int
    resolved: int
    turns: float

    def rate(self, what: str) -> float:
        return float(getattr(self, what)) / self.n if self.n else 0.0


def figures(outcomes: list[Outcome]) -> Figures:
    n = len(outcomes)
    return Figures(
        n=n,
        empty=sum(not o.attempt.files_changed for o in outcomes),
        stuck=sum(stuck(o) for o in outcomes),
        resolved=sum(o.attempt.solved for o in outcomes),
        turns=sum(o.attempt.turns for o in outcomes) / max(1, n),
    )


def with_rates(profile: Profile, **rates: float) -> Profile:
    return replace(profile, rates=profile.rates | rates)


@dataclass
class Quick:
    """What the fit reads of one ungraded plain-loop attempt."""

    files_changed: list[str]
    longest_repeat: int
    turns: int
    solved: bool = False
    belief: str = ""  # the attempt's idea of the fix: right, stub (no change), or a wrong edit's kind
    ended_by_text_call: bool = False  # its last answer was a call written as text, which ends the plain loop


def quick(task: EvalTask, profile: Profile, seed: int, graded: bool = False) -> Quick:
    """One plain-loop attempt in this process against its own simulated server; graded by the hidden tests in the
    sandbox as an attempt's own process grades it (eval/grade.py) when asked."""
    from slmcode.eval.grade import grade
    from slmcode.eval.plain_loop import run_baseline
    from slmcode.eval.process import commit_all

    root = Path(tempfile.mkdtemp(prefix=f"slmcode-fit-{task.id}-"))
    try:
        workspace = copy_repo(task, root / task.id)
        commit_all(workspace, "task")
        with SimServer(task, profile, seed=seed, agent="baseline") as sim:
            settings = {"base_url": sim.url, "model": profile.model, "request_retries": 0}
            run = run_baseline(task.prompt, workspace, task.test_command, settings)
        files = changed_files(task, workspace)
        solved = grade(task, workspace).passed if graded else False
        text_call = bool(sim.log) and "text_call" in sim.log[-1].errors
        return Quick(files, run.signals.longest_repeat, run.turns, solved, sim.belief, text_call)
    finally:
        shutil.rmtree(root, ignore_errors=True)


class Fitter:
    def __init__(self, tasks: list[EvalTask], seeds: int, jobs: int, timeout: float, log: Any) -> None:
        self.tasks, self.seeds, self.jobs, self.timeout, self.log = tasks, seeds, jobs, timeout, log
        self.runs = 0
        self.last: list[Quick] = []

    def measure(self, profile: Profile, seeds: range | None = None, graded: bool = False) -> Figures:
        """The plain loop in this process over the tasks x `seeds` (the fit's seeds unless given)."""
        work = [(t, s) for t in self.tasks for s in (seeds if seeds is not None else range(self.seeds))]
        with ThreadPoolExecutor(max_workers=max(1, self.jobs)) as pool:
            runs = list(pool.map(lambda ts: quick(ts[0], profile, ts[1], graded), work))
        self.last = runs
        got = Figures(
            n=len(runs),
            empty=sum(not r.files_changed for r in runs),
            stuck=sum(r.longest_repeat >= LOOP_REPEATS for r in runs),
            resolved=sum(r.solved for r in runs),
            turns=sum(r.turns for r in runs) / max(1, len(runs)),
        )
        self.runs += 1
        self.log(
            f"    run {self.runs}: stop_without_edit {profile.rates.get('stop_without_edit', 0):.3f}, "
            f"repeat_after_error {profile.rates.get('repeat_after_error', 0):.3f} -> "
            f"empty {100 * got.rate('empty'):.1f}, stuck {100 * got.rate('stuck'):.1f}, "
            f"resolved {100 * got.rate('resolved'):.1f} (n {got.n})"
        )
        return got

    def halve(
        self, profile: Profile, rate: str, what: str, target: float, low: float, high: float, steps: int
    ) -> float:
        """The rate in [low, high] at which the increasing figure `what` reaches `target`, by halving."""
        for _ in range(steps):
            mid = (low + high) / 2
            got = self.measure(with_rates(profile, **{rate: mid})).rate(what)
            low, high = (mid, high) if got < target else (low, mid)
        if high >= 1.0 or low <= 0.0:
            self.log(f"    {rate} ended at a bound of its interval: {what} {target:.3f} may be out of its reach")
        return round((low + high) / 2, 3)


def fit_profile(
    fitter: Fitter, profile: Profile, row: tuple[str, float, float, float, float], steps: int, high: float, scan: bool
) -> Profile:
    """stop_without_edit to the row's empty patch, the stuck entry held; then how far stuck-in-loop can be moved."""
    _, empty_pct, stuck_pct, _, _ = row
    held = profile.rates.get("repeat_after_error", 0.0)
    fitter.log(
        f"  fitting {profile.name}: targets empty {empty_pct}, stuck {stuck_pct}; repeat_after_error {held} held"
    )
    stop = fitter.halve(profile, "stop_without_edit", "empty", empty_pct / 100, 0.0, high, steps)
    fitted = with_rates(profile, stop_without_edit=stop)
    if scan:
        fitter.log(
            f"  stuck's reach at stop_without_edit {stop} (repeat_after_error raised; empty patch moves with it):"
        )
    for entry in STUCK_SCAN if scan else ():
        fitter.measure(with_rates(fitted, repeat_after_error=entry))
    return fitted


def floor(fitter: Fitter, profile: Profile) -> None:
    """The lowest empty-patch rate the two values can give (both 0), and what leaves those attempts empty."""
    got = fitter.measure(with_rates(profile, stop_without_edit=0.0, repeat_after_error=0.0))
    empty = [r for r in fitter.last if not r.files_changed]
    stub = sum(r.belief == "stub" for r in empty)
    text = sum(r.ended_by_text_call and r.belief != "stub" for r in empty)
    fitter.log(
        f"    floor: with stop_without_edit 0 and repeat_after_error 0, empty patch {100 * got.rate('empty'):.1f}% "
        f"({got.empty} of {got.n}): {stub} held the stub belief (its idea of the fix is no change), {text} more "
        f"ended at a call written as text, {len(empty) - stub - text} otherwise"
    )


def verdict(got: float, published: float, half: float) -> str:
    return "within" if abs(100 * got - published) <= 100 * half else "OUTSIDE"


def pick_tasks(prefixes: str) -> list[EvalTask]:
    wanted = [p.strip() for p in prefixes.split(",") if p.strip()]
    return [t for t in load_suite() if any(t.id.startswith(p) for p in wanted)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--profiles", default="7b,14b,32b")
    parser.add_argument("--split", choices=sorted(ROWS), default="verified", help="the rows fitted to")
    parser.add_argument("--tasks", default="py-stock", help="bundled task-id prefixes (comma-separated)")
    parser.add_argument("--seeds", type=int, default=2, help="seeds per task during the fit")
    parser.add_argument("--final-seeds", type=int, default=6, help="seeds per task for the fitted figures")
    parser.add_argument("--steps", type=int, default=5, help="halvings of stop_without_edit's interval")
    parser.add_argument("--jobs", type=int, default=3, help="attempts at once (they mostly wait on the sandbox)")
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--stop-high", type=float, default=1.0, help="the top of stop_without_edit's interval")
    parser.add_argument("--no-scan", dest="scan", action="store_false", help="no floor, no stuck scan")
    parser.add_argument("--cell-check", action="store_true", help="rerun seed 0 through the cell and compare")
    parser.add_argument("--out", type=Path, default=None, help="also write the report here")
    args = parser.parse_args()

    lines: list[str] = []

    def log(text: str) -> None:
        print(text, flush=True)
        lines.append(text)

    started = time.time()
    # As an attempt's own process has it (eval/process.py child_env): this interpreter first on PATH.
    os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    tasks = pick_tasks(args.tasks)
    n_pub, rows = ROWS[args.split]
    other = "lite" if args.split == "verified" else "verified"
    fitter = Fitter(tasks, args.seeds, args.jobs, args.timeout, log)
    log("SIMULATED: a simulated small model (slmcode/eval/sim), not a real one.")
    log(f"Fit of empty-patch and stuck-in-loop rates to {SOURCE}, {SPLIT_NAMES[args.split]} ({n_pub} instances)")
    log(f"protocol: the plain loop cell; tasks: {len(tasks)} bundled ({', '.join(t.id for t in tasks)})")
    log(f"fit: {args.seeds} seeds per task, {args.steps} halvings; check: {args.final_seeds} seeds per task")
    results = []
    for name in [p.strip() for p in args.profiles.split(",") if p.strip()]:
        if name not in rows:
            log(f"  {name}: no SWE-Gym row (rows: {', '.join(rows)})")
            continue
        base = load_profile(name)
        if args.scan:
            floor(fitter, base)
        fitted = fit_profile(fitter, base, rows[name], args.steps, args.stop_high, args.scan)
        check = range(CHECK_SEED, CHECK_SEED + args.final_seeds)  # seeds the fit never ran
        got = fitter.measure(fitted, check, graded=True)
        results.append((name, base, fitted, got))
    log("")
    log(
        f"SWE-Gym row vs fitted profile's figure (SIMULATED; plain loop, {len(tasks)} tasks x {args.final_seeds} "
        f"seeds {CHECK_SEED}..{CHECK_SEED + args.final_seeds - 1}, graded)"
    )
    header = f"{'profile':8} {'figure':16} {'SWE-Gym':>9} {'+/- (n)':>11} {'simulated [95% CI]':>22}  verdict"
    log(header)
    for name, base, fitted, got in results:
        _, empty_pct, stuck_pct, turns, resolved_pct = rows[name]
        for label, what, published in (
            ("empty patch", "empty", empty_pct),
            ("stuck in loop", "stuck", stuck_pct),
            ("resolved", "resolved", resolved_pct),
        ):
            count = getattr(got, what)
            lo, hi = wilson(count, got.n)
            half = band(published / 100, n_pub)
            mark = {"empty": "fitted: ", "stuck": "held: "}.get(what, "not fitted")
            mark += verdict(got.rate(what), published, half) if what != "resolved" else ""
            log(
                f"{name:8} {label:16} {published:>8.1f}% {f'+/-{100 * half:.1f} ({n_pub})':>11} "
                f"{f'{100 * got.rate(what):.1f}% [{100 * lo:.0f}, {100 * hi:.0f}]':>22}  {mark}"
            )
        log(f"{name:8} {'avg turns':16} {turns:>9.1f} {'':>11} {got.turns:>22.1f}  not fitted")
        log(
            f"  {name} fitted: stop_without_edit {base.rates.get('stop_without_edit', 0):.3f} -> "
            f"{fitted.rates['stop_without_edit']:.3f}; held: repeat_after_error "
            f"{fitted.rates['repeat_after_error']:.3f}, stuck_stay {fitted.mind.stuck_stay}"
        )
        o_n, (_, o_empty, o_stuck, _, _) = ROWS[other][0], ROWS[other][1][name]
        e_half, s_half = band(o_empty / 100, o_n), band(o_stuck / 100, o_n)
        log(
            f"  {name} against the {SPLIT_NAMES[other]} row (not fitted to): empty {o_empty} "
            f"(+/-{100 * e_half:.1f}): {verdict(got.rate('empty'), o_empty, e_half)}, "
            f"stuck {o_stuck} (+/-{100 * s_half:.1f}): {verdict(got.rate('stuck'), o_stuck, s_half)}"
        )
    if args.cell_check and results:
        name, _, fitted, _ = results[0]
        log("")
        log(f"the in-process plain loop against the plain loop cell (compare.run_grid), {name} fitted, seed 0:")
        outcomes = run_grid(
            [fitted], tasks, 1, [Cell("baseline")], jobs=args.jobs, timeout=args.timeout, on_result=lambda o: None
        )
        cell = figures(outcomes)
        mine = fitter.measure(fitted, range(1), graded=True)
        same = (cell.empty, cell.stuck, cell.resolved) == (mine.empty, mine.stuck, mine.resolved)
        log(
            f"  cell: empty {cell.empty}, stuck {cell.stuck}, resolved {cell.resolved} of {cell.n}; in-process: "
            f"empty {mine.empty}, stuck {mine.stuck}, resolved {mine.resolved} of {mine.n}: "
            f"{'the same' if same else 'DIFFERENT'}"
        )
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    log(f"runs: {fitter.runs}, {time.time() - started:.0f} s; uptime at the end: {load}")
    if args.out:
        args.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
