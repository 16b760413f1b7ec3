"""Fit a SIMULATED profile's skill to a published polyglot figure that gives pass_2 alone (a row with no first-try
figure, such as little-coder's vanilla-aider baseline), through the aider-like cell's protocol, with retry_gain
held from a profile already fitted to a full row (the form bench/sim_fit.py shows to transfer across models).

    python bench/sim_fit_pass2.py --polyglot DIR --pass2 19.11 --gain-from 32b --profile 7b

Prints the fitted skill and what the fit expects for pass_1 and pass_2 over the exercises, and over each
language's."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from bench.sim_fit import band, pass_1, pass_2, solve
from slmcode.eval.sim.knowledge import Knowledge
from slmcode.eval.sim.profile import load_profile
from slmcode.eval.suites.polyglot import load_polyglot
from slmcode.eval.suites.polyglot_sim import lay_out_all


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--polyglot", type=Path, required=True)
    parser.add_argument("--pass2", type=float, required=True, help="the published pass_2, percent")
    parser.add_argument("--n", type=int, default=225, help="exercises behind the published figure")
    parser.add_argument("--gain-from", required=True, help="the fitted profile whose retry_gain is held")
    parser.add_argument("--profile", default="7b", help="the profile whose difficulty coefficients are kept")
    args = parser.parse_args()

    gain = load_profile(args.gain_from).mind.retry_gain
    if gain is None:
        raise SystemExit(f"profile {args.gain_from} has no fitted retry_gain")
    base = load_profile(args.profile).mind
    exercises = load_polyglot(args.polyglot)
    root, tasks, unpaired = lay_out_all(exercises, tries=2)
    try:
        difficulty = {t.id: base.difficulty(*Knowledge(t).size()) for t in tasks}
        language = {t.id: t.language for t in tasks}
    finally:
        shutil.rmtree(root, ignore_errors=True)
    everything = list(difficulty.values())
    target = args.pass2 / 100
    skill = solve(lambda s: pass_2(s, gain, everything), target)
    print("SIMULATED fit of skill to a pass_2-only figure through the aider-like cell (whole, one retry)")
    print(f"exercises laid out: {len(tasks)} of {len(exercises)} (unpaired: {len(unpaired)})")
    print(
        f"published pass_2 {args.pass2} (+/- {100 * band(target, args.n):.1f} over {args.n}); retry_gain {gain:.3f} "
        f"held from profile {args.gain_from}; difficulty coefficients of profile {args.profile} (assumed)"
    )
    print(f"fitted: skill {skill:.3f}")
    for lang in ["all", *sorted(set(language.values()))]:
        ds = everything if lang == "all" else [d for t, d in difficulty.items() if language[t] == lang]
        print(
            f"  {lang}: {len(ds)} exercises, the fit expects pass_1 {100 * pass_1(skill, ds):.1f}, "
            f"pass_2 {100 * pass_2(skill, gain, ds):.1f}"
        )


if __name__ == "__main__":
    main()
