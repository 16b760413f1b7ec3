"""The harness's verdict against the hidden grade: a confusion table over the bundled suite under the SIMULATED
model. A run's outcome ("done", or "failed: ..." with its first reason) should agree with what the hidden tests
say of the finished work; each disagreement is either legitimate (the visible checks the harness could run
passed, the hidden ones go further) or a defect of the verdict.

Usage:
  python bench/verdict_confusion.py --sim perfect,7b [--seeds 1] [--jobs 2] [--task ID,ID] [--out DIR]
      runs `slmcode eval --sim PROFILE` (the harness cell only) per profile and prints the table
  python bench/verdict_confusion.py --report out/sim-*.json
      prints the table of reports already written
Every figure is SIMULATED: the profile's error rates, not a real model's skill.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

# The outcome's first reason, in the words learn.failure_reason uses.
VERDICTS = (
    ("done", lambda o: o == "done"),
    ("no edit made", lambda o: "no edit made" in o),
    ("criteria failed", lambda o: "criteria failed" in o),
    ("criteria unverified", lambda o: "criteria unverified" in o),
    ("interrupted", lambda o: o.startswith("interrupted")),
    ("timed out", lambda o: o == "timed out"),
    ("other failure", lambda o: True),
)


def verdict_of(outcome: str) -> str:
    return next(name for name, fits in VERDICTS if fits(outcome.strip()))


def table(attempts: list[dict[str, Any]], cases: bool) -> str:
    counts: Counter[tuple[str, bool]] = Counter((verdict_of(a["outcome"]), bool(a["solved"])) for a in attempts)
    lines = [f"{'harness outcome':22} {'hidden pass':>11} {'hidden fail':>11}"]
    for name, _ in VERDICTS:
        passed, failed = counts[(name, True)], counts[(name, False)]
        if passed or failed:
            lines.append(f"{name:22} {passed:>11} {failed:>11}")
    done_fail = counts[("done", False)]
    failed_pass = sum(n for (name, solved), n in counts.items() if name != "done" and solved)
    lines.append(
        f"agree {len(attempts) - done_fail - failed_pass} of {len(attempts)}; "
        f"done but hidden tests fail: {done_fail}; failed but hidden tests pass: {failed_pass}"
    )
    for a in attempts if cases else []:
        if (a["outcome"] == "done") != bool(a["solved"]):
            lines.append(f"  {a['task']} seed {a.get('seed', '-')}: {a['outcome'][:150]!r} solved={a['solved']}")
    return "\n".join(lines)


def run_profile(profile: str, args: argparse.Namespace, out: Path) -> Path:
    command = [sys.executable, "-c", "from slmcode.cli import main; main()", "eval", "--sim", profile]
    command += ["--seeds", str(args.seeds), "--jobs", str(args.jobs), "--json", "--out", str(out)]
    if args.task:
        command += ["--task", args.task]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return max(out.glob("sim-*.json"))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sim", default="", help="profiles, comma-separated")
    parser.add_argument("--report", nargs="*", type=Path, default=[], help="sim reports to tabulate instead")
    parser.add_argument("--cases", action="store_true", help="also list each disagreement")
    parser.add_argument("--seeds", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--task", default="", help="task ids, comma-separated (default: the whole suite)")
    parser.add_argument("--out", type=Path, default=None, help="where the reports go (default: a scratch folder)")
    args = parser.parse_args()
    reports = list(args.report)
    with tempfile.TemporaryDirectory(prefix="slmcode-confusion-") as scratch:
        for profile in (p for p in args.sim.split(",") if p):
            out = (args.out or Path(scratch)) / profile
            reports.append(run_profile(profile, args, out))
            print(f"report: {reports[-1]}", file=sys.stderr)
        by_profile: dict[str, list[dict[str, Any]]] = {}
        for report in reports:
            data = json.loads(report.read_text())
            for a in data["attempts"]:
                if a["cell"] == "harness":
                    by_profile.setdefault(a["profile"], []).append(a)
    for profile, attempts in by_profile.items():
        print(f"SIMULATED model, profile {profile}: harness outcome x hidden grade, {len(attempts)} attempts")
        print(table(attempts, args.cases))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
