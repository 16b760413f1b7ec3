"""What ws_shell's changed-files check costs per command: `git status` before and after (tools/shellchanges).

Usage: python bench/shell_changes.py [REPO ...] [--rounds N]   (default: this repository)
Prints, per repository, its tracked files and the median and worst milliseconds of one snapshot; a command pays
two. Nothing is changed in the repository.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time
from pathlib import Path

from slmcode.tools.shellchanges import uncommitted


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("repos", nargs="*", default=[str(Path(__file__).resolve().parent.parent)])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    print(f"{'repository':40} {'files':>7} {'dirty':>6} {'median ms':>10} {'worst ms':>9}")
    for repo in map(Path, args.repos):
        files = subprocess.run(["git", "-C", str(repo), "ls-files", "-z"], capture_output=True, check=True).stdout
        timings, found = [], {}
        for _ in range(args.rounds):
            start = time.perf_counter()
            found = uncommitted(repo) or {}
            timings.append((time.perf_counter() - start) * 1000)
        tracked = files.count(b"\0")
        print(f"{str(repo)[-40:]:40} {tracked:7d} {len(found):6d} {statistics.median(timings):10.1f} "
              f"{max(timings):9.1f}")


if __name__ == "__main__":
    main()
