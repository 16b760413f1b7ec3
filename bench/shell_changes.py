"""What ws_shell's changed-files check costs per command: `git status` before and after (tools/shellchanges).

Usage: python bench/shell_changes.py [REPO ...] [--rounds N]   (default: this repository)
Prints, per repository, its tracked files and the median and worst milliseconds of one snapshot (a command pays
two), next to the same `git status` run on the host outside the wall (what a snapshot cost before the harness's
git moved inside the jail): the difference is the jail's start. Nothing is changed in the repository.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from slmcode.environment.gitsafe import STATUS, git_argv, git_env
from slmcode.tools.shellchanges import uncommitted


def timed(rounds: int, work: Callable[[], object]) -> list[float]:
    timings = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        timings.append((time.perf_counter() - start) * 1000)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("repos", nargs="*", default=[str(Path(__file__).resolve().parent.parent)])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    print(
        f"{'repository':40} {'files':>7} {'dirty':>6} {'wall median':>12} {'worst':>7} {'host median':>12} {'worst':>7}"
    )
    for repo in map(Path, args.repos):
        files = subprocess.run(["git", "-C", str(repo), "ls-files", "-z"], capture_output=True, check=True).stdout
        tracked = files.count(b"\0")
        found = uncommitted(repo) or {}
        wall = timed(args.rounds, lambda repo=repo: uncommitted(repo))
        host = timed(
            args.rounds,
            lambda repo=repo: subprocess.run(
                git_argv(*STATUS), cwd=repo, env=git_env(), capture_output=True, check=False
            ),
        )
        print(
            f"{str(repo)[-40:]:40} {tracked:7d} {len(found):6d} {statistics.median(wall):12.1f} "
            f"{max(wall):7.1f} {statistics.median(host):12.1f} {max(host):7.1f}"
        )


if __name__ == "__main__":
    main()
