"""Fit a SIMULATED profile's competence to a published row of aider's polyglot leaderboard, through the
aider-like cell's protocol (whole files in the prompt, whole files back, one retry told the failing output).

Under that cell an exercise is solved on the first try when the belief is right (logistic(skill - difficulty),
difficulty read off the exercise's example solution by the profile's coefficients) and on the second when a
wrong belief turns right after reading the failing output (flip_after_failing_test). So over the 225
exercises pass_1 = mean p_i and pass_2 = pass_1 + mean (1 - p_i) x q_i, with q_i = logistic(skill + retry_gain
- d_i) (mind.retry_gain): skill is solved for pass_1, retry_gain for pass_2, the difficulty coefficients stay
the profile's (assumed). A constant flip (q_i = flip) is fitted too, for comparison. Then, optionally, the
aider-like cell is run
through the simulator on the exercises runnable here to check it achieves what the fit expects there, and an
out-of-sample row is predicted: its skill fitted to its pass_1 alone, its pass_2 predicted with retry_gain held.

    python bench/sim_fit.py --polyglot DIR --leaderboard polyglot_leaderboard.yml \
        --row "Qwen2.5-Coder-32B-Instruct/whole" --holdout "gemma-3-27b-it/whole" --profile 7b \
        [--diff "Qwen2.5-Coder-32B-Instruct/diff"] [--simulate python]
"""

from __future__ import annotations

import argparse
import math
import shutil
from pathlib import Path
from typing import Any

import yaml

from slmcode.eval.sim.knowledge import Knowledge
from slmcode.eval.sim.profile import load_profile
from slmcode.eval.suites.polyglot import load_polyglot
from slmcode.eval.suites.polyglot_sim import lay_out_all


def row(board: list[dict], spec: str) -> dict:
    model, fmt = spec.rsplit("/", 1)
    found = [r for r in board if r.get("model") == model and r.get("edit_format") == fmt]
    if not found:
        raise SystemExit(f"no row {spec} in the leaderboard")
    return found[0]


def logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def pass_1(skill: float, difficulties: list[float]) -> float:
    return sum(logistic(skill - d) for d in difficulties) / len(difficulties)


def solve_skill(target: float, difficulties: list[float]) -> float:
    low, high = -30.0, 30.0
    for _ in range(100):
        mid = (low + high) / 2
        low, high = (mid, high) if pass_1(mid, difficulties) < target else (low, mid)
    return (low + high) / 2


def pass_2(skill: float, gain: float, difficulties: list[float]) -> float:
    return sum(
        logistic(skill - d) + (1 - logistic(skill - d)) * logistic(skill + gain - d) for d in difficulties
    ) / len(difficulties)


def solve(f, target: float, low: float = -40.0, high: float = 40.0) -> float:  # type: ignore[no-untyped-def]
    """x in [low, high] where the increasing f reaches target (by halving)."""
    for _ in range(100):
        mid = (low + high) / 2
        low, high = (mid, high) if f(mid) < target else (low, mid)
    return (low + high) / 2


def band(p: float, n: int) -> float:
    """The published figure's 95% half-width from its n exercises (binomial)."""
    return 1.96 * math.sqrt(p * (1 - p) / n)


def malformed_rates(board_row: dict) -> tuple[float, float]:
    """A diff row's malformed responses as per-answer rates, under aider's protocol: each try is one answer, and
    an answer whose blocks fail is told so and answers again, up to 3 times (Coder.max_reflections). The row's
    percent_cases_well_formed is per exercise (num_with_malformed_responses of test_cases had at least one), so
    with the share 1 - pass_1 of exercises given a second try, P(no malformed answer in an exercise) =
    pass_1 (1 - r) + (1 - pass_1) (1 - r)^2 gives r, the rate of a try's first answer. Its
    num_malformed_responses then gives c, the rate an answer to a reflection is malformed again: each malformed
    try holds 1 + c + c^2 + c^3 malformed answers on average."""
    n, p1 = board_row["test_cases"], board_row["pass_rate_1"] / 100
    clean = 1 - board_row["num_with_malformed_responses"] / n
    r = solve(lambda x: -(p1 * (1 - x) + (1 - p1) * (1 - x) ** 2), -clean, 0.0, 1.0)
    tries = n * (1 + (1 - p1))
    per_bad_try = board_row["num_malformed_responses"] / max(1e-9, tries * r)
    c = solve(lambda x: 1 + x + x * x + x**3, per_bad_try, 0.0, 1.0) if r else 0.0
    return r, c


def diff_passes(skill: float, gain: float, r: float, c: float, difficulties: list[float]) -> tuple[float, float]:
    """pass_1 and pass_2 through the diff protocol: a try's edit is lost when its first answer and all three
    answers to reflections are malformed (r c^3); otherwise as in whole."""
    lands = 1 - r * c**3
    one = two = 0.0
    for d in difficulties:
        p, q = logistic(skill - d), logistic(skill + gain - d)
        one += p * lands
        two += p * lands + p * (1 - lands) * lands + (1 - p) * q * lands
    return one / len(difficulties), two / len(difficulties)


def check_diff(spec: dict, skill: float, gain: float, difficulties: list[float]) -> tuple[float, float]:
    r, c = malformed_rates(spec)
    d1, d2 = diff_passes(skill, gain, r, c, difficulties)
    n = spec["test_cases"]
    p1, p2 = spec["pass_rate_1"] / 100, spec["pass_rate_2"] / 100
    print(
        f"diff row: {spec['model']} {spec['edit_format']}, {spec['date']}, commit {spec['commit_hash']}: "
        f"well-formed {spec['percent_cases_well_formed']}% of exercises ({spec['num_with_malformed_responses']} "
        f"of {n} had a malformed answer; {spec['num_malformed_responses']} malformed answers in all)"
    )
    print(
        f"  per-answer rates: malformed_diff {r:.3f} (a try's first answer), malformed_diff_again {c:.3f} "
        f"(an answer to a reflection); a try's edit lost {100 * r * c**3:.1f}% of the time"
    )
    for name, got, p in (("pass_rate_1", d1, p1), ("pass_rate_2", d2, p2)):
        published = spec[name]
        inside = abs(100 * got - published) <= 100 * band(p, n)
        print(
            f"  {name}: the whole-fitted skill and retry_gain predict {100 * got:.1f} through diff, published "
            f"{published} (+/- {100 * band(p, n):.1f}): {'within' if inside else 'OUTSIDE'} its band"
        )
    return r, c


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--polyglot", type=Path, required=True)
    parser.add_argument("--leaderboard", type=Path, required=True)
    parser.add_argument("--row", required=True, help="MODEL/EDIT_FORMAT of the row to fit")
    parser.add_argument("--holdout", required=True, help="MODEL/EDIT_FORMAT of the out-of-sample row")
    parser.add_argument("--profile", default="7b", help="the profile whose difficulty coefficients are kept")
    parser.add_argument("--diff", default="", help="MODEL/diff: a diff row predicted from the whole fit")
    parser.add_argument("--simulate", default="", help="languages (comma-separated) to run the fitted cell on")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()

    board = yaml.safe_load(args.leaderboard.read_text())
    target, holdout = row(board, args.row), row(board, args.holdout)
    base = load_profile(args.profile)
    exercises = load_polyglot(args.polyglot)
    root, tasks, unpaired = lay_out_all(exercises, tries=2)
    try:
        sizes = {t.id: Knowledge(t).size() for t in tasks}
        difficulties = [base.mind.difficulty(*s) for s in sizes.values()]
        n = target["test_cases"]
        p1, p2 = target["pass_rate_1"] / 100, target["pass_rate_2"] / 100
        skill = solve_skill(p1, difficulties)
        flip = (p2 - p1) / (1 - p1)
        gain = solve(lambda g: pass_2(skill, g, difficulties), p2)
        print("SIMULATED fit through the aider-like cell (whole files, one retry with the failing output)")
        print(f"exercises laid out: {len(tasks)} of {len(exercises)} (unpaired: {len(unpaired)})")
        print(
            f"difficulty coefficients kept from profile {args.profile} (assumed): base {base.mind.difficulty_base}, "
            f"per_hunk {base.mind.per_hunk}, per_file {base.mind.per_file}, per_line {base.mind.per_changed_line}"
        )
        print(
            f"target row: {target['model']} {target['edit_format']}, {target['date']}, commit {target['commit_hash']}, "
            f"dirname {target['dirname']}: pass_rate_1 {target['pass_rate_1']} (+/- {100 * band(p1, n):.1f}), "
            f"pass_rate_2 {target['pass_rate_2']} (+/- {100 * band(p2, n):.1f}), "
            f"well-formed {target['percent_cases_well_formed']}%"
        )
        print(f"fitted: skill {skill:.3f}, retry_gain {gain:.3f} (constant-flip form: flip {flip:.4f})")
        print(
            f"fit's expectation over the {len(tasks)} exercises: pass_1 {100 * pass_1(skill, difficulties):.1f}, "
            f"pass_2 {100 * pass_2(skill, gain, difficulties):.1f}"
        )
        h1, h2 = holdout["pass_rate_1"] / 100, holdout["pass_rate_2"] / 100
        h_skill = solve_skill(h1, difficulties)
        h_band = band(h2, holdout["test_cases"])
        for form, predicted in (
            ("retry_gain held", pass_2(h_skill, gain, difficulties)),
            ("constant flip held", h1 + (1 - h1) * flip),
        ):
            inside = abs(predicted - h2) <= h_band
            print(
                f"out of sample ({form}): {holdout['model']} {holdout['edit_format']}, {holdout['date']}, commit "
                f"{holdout['commit_hash']}: skill fitted to pass_rate_1 {holdout['pass_rate_1']} -> {h_skill:.3f}; "
                f"pass_rate_2 predicted {100 * predicted:.1f}, published {holdout['pass_rate_2']} "
                f"(+/- {100 * h_band:.1f}): {'within' if inside else 'OUTSIDE'} its band"
            )
        rates: dict[str, float] = {}
        if args.diff:
            r, c = check_diff(row(board, args.diff), skill, gain, difficulties)
            rates = {"malformed_diff": r, "malformed_diff_again": c}
        if args.simulate:
            simulate(args, base, skill, gain, tasks, sizes)
            if rates:
                simulate(args, base, skill, gain, tasks, sizes, cell="aider-diff", rates=rates)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def simulate(
    args: argparse.Namespace,
    base: Any,
    skill: float,
    gain: float,
    tasks: Any,
    sizes: Any,
    cell: str = "aider",
    rates: dict[str, float] | None = None,
) -> None:
    from dataclasses import replace

    from slmcode.eval.sim.compare import Cell, run_grid
    from slmcode.eval.sim.mutants import reference_fails
    from slmcode.eval.sim.stats import wilson
    from slmcode.eval.suites.polyglot import missing_toolchain

    wanted = {x.strip() for x in args.simulate.split(",")}
    chosen = [t for t in tasks if t.language in wanted and not missing_toolchain(t.language)]
    runnable = [t for t in chosen if not reference_fails(t)]
    mind = replace(base.mind, skill=skill, retry_gain=gain)
    fitted = replace(base, name=f"{base.name}-fitted", mind=mind, rates=base.rates | (rates or {}))
    outcomes = run_grid(
        [fitted], runnable, args.seeds, [Cell(cell)], jobs=args.jobs, timeout=600, on_result=lambda o: None
    )
    n = len(outcomes)
    first = sum(bool(o.attempt.tries and o.attempt.tries[0]) for o in outcomes)
    second = sum(o.attempt.solved for o in outcomes)
    expect1 = sum(logistic(skill - fitted.mind.difficulty(*sizes[t.id])) for t in runnable) / max(1, len(runnable))
    chosen_difficulties = [fitted.mind.difficulty(*sizes[t.id]) for t in runnable]
    expect2 = pass_2(skill, gain, chosen_difficulties)
    if rates:
        expect1, expect2 = diff_passes(
            skill, gain, rates["malformed_diff"], rates["malformed_diff_again"], chosen_difficulties
        )
    lo1, hi1 = wilson(first, n)
    lo2, hi2 = wilson(second, n)
    print(
        f"simulated check: {cell} cell on {len(runnable)} runnable {sorted(wanted)} exercises x seeds "
        f"0..{args.seeds - 1}, profile {fitted.name} ({n} attempts): "
        f"pass_1 {100 * first / n:.1f} [{100 * lo1:.1f}, {100 * hi1:.1f}] "
        f"(fit expects {100 * expect1:.1f} there), pass_2 {100 * second / n:.1f} [{100 * lo2:.1f}, {100 * hi2:.1f}] "
        f"(fit expects {100 * expect2:.1f} there)"
    )


if __name__ == "__main__":
    main()
