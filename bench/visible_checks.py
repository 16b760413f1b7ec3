"""How many bundled tasks' visible checks test the change: the task's test command, run without the hidden
tests, should fail on the unchanged repository and pass once the reference solution is applied (SWE-bench's
FAIL_TO_PASS). A check that passes before the change gives verify, the corrector and best-of-N nothing to act on.

Usage: python bench/visible_checks.py [--language python,javascript] [--list] [--suite DIR]
(--suite: another copy of the suite's folder, e.g. an older commit's, laid out by
 `git archive REV slmcode/data/suite | tar -x -C DIR`, then DIR/slmcode/data/suite; before the suite became
 data, slmcode/eval/suite)
Prints, per language, how many tasks' visible checks fail before the change and pass after it; with --list,
each task's two results. Tasks whose toolchain is not installed are counted as skipped.
"""

from __future__ import annotations

import argparse
import tempfile
from collections import Counter
from pathlib import Path

from slmcode.eval.grade import run_tests
from slmcode.eval.suite import SUITE_DIR, copy_repo, load_suite, missing_toolchain, overlay


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--language", default="", help="comma-separated languages (default: all)")
    parser.add_argument("--list", action="store_true", help="one line per task")
    parser.add_argument("--suite", type=Path, default=SUITE_DIR, help="the suite's folder (default: the bundled one)")
    args = parser.parse_args()
    wanted = {x for x in args.language.split(",") if x}
    total: Counter[str] = Counter()
    fails_before: Counter[str] = Counter()
    meaningful: Counter[str] = Counter()
    skipped: Counter[str] = Counter()
    for task in load_suite(args.suite):
        if wanted and task.language not in wanted:
            continue
        if missing_toolchain(task.language):
            skipped[task.language] += 1
            continue
        with tempfile.TemporaryDirectory(prefix="slmcode-visible-") as scratch:
            before = run_tests(task, copy_repo(task, Path(scratch) / "before"), timeout=120)
            after_ws = copy_repo(task, Path(scratch) / "after")
            overlay(task.solution, after_ws)
            after = run_tests(task, after_ws, timeout=120)
        total[task.language] += 1
        fails_before[task.language] += not before.passed
        meaningful[task.language] += (not before.passed) and after.passed
        if args.list:
            word = {True: "pass", False: "fail"}
            print(f"{task.id:40} before={word[before.passed]} after={word[after.passed]}")
    for language in sorted(total.keys() | skipped.keys()):
        print(
            f"{language:11} visible check fails before the change: {fails_before[language]} of {total[language]};"
            f" fails before and passes after: {meaningful[language]}; skipped (no toolchain): {skipped[language]}"
        )
    n, f = sum(total.values()), sum(fails_before.values())
    print(f"all        visible check fails before the change: {f} of {n}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
