"""Build SWE-bench-style instances from a repository's own fix commits, for `slmcode eval --suite swebench FILE
--repos DIR --sim PROFILE` where the published instances cannot run here (SWE-bench Lite's repositories need
their own old Python and packages; this machine has one Python and no network).

A commit is kept when it is not a merge, its subject says it fixes something, it changes 1 to 3 source files
(none added or deleted) and at least one test file, and its test changes make a test fail at the parent that
passes at the commit. As SWE-bench builds an instance: the source part of the diff is the gold `patch`, the
test part the `test_patch`, FAIL_TO_PASS the tests of the test files that fail at the parent with the test patch
and pass at the commit, PASS_TO_PASS those that pass at both. The problem statement is the commit message (SWE-bench
uses the linked issue's text; a commit has none). Tests run through slmcode's sandbox (suites/sandboxed.py), on
a clone in a temporary folder; the user's clone is only read.

The JSONL holds code (the patches), so it goes outside the repository (e.g. /work/data); what enters docs/bench
is the instance ids and SHAs.

Usage: python bench/swebench_from_commits.py --clone DIR/OWNER__NAME --repo OWNER/NAME --out FILE.jsonl [--limit 20]
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

from slmcode.eval.suites.sandboxed import run_tests
from slmcode.eval.suites.swebench import checkout, git, host_git
from slmcode.eval.suites.swegrade import PASSING, PYTEST, statuses

_FIX = re.compile(r"\b(fix(es|ed)?|bug(fix)?|error|incorrect|wrong|broken|regression)\b", re.IGNORECASE)
MAX_CHANGED_LINES = 80


def is_test(path: str) -> bool:
    name = Path(path).name
    return path.startswith(("tests/", "test/")) or name.startswith("test_") or name.endswith("_test.py")


def changes(clone: Path, sha: str) -> list[tuple[str, str, int]]:
    """(status, path, changed lines) of each file the commit changes against its first parent."""
    status = host_git(clone, "diff", "--name-status", f"{sha}^", sha).stdout.split("\n")
    numstat = host_git(clone, "diff", "--numstat", f"{sha}^", sha).stdout.split("\n")
    lines = {}
    for row in numstat:
        parts = row.split("\t")
        if len(parts) == 3:
            lines[parts[2]] = int(parts[0]) + int(parts[1]) if parts[0].isdigit() and parts[1].isdigit() else 10**6
    return [(row.split("\t")[0], row.split("\t")[-1], lines.get(row.split("\t")[-1], 0)) for row in status if row]


def diff(clone: Path, sha: str, paths: list[str]) -> str:
    return host_git(clone, "diff", "--no-ext-diff", "--no-textconv", f"{sha}^", sha, "--", *paths).stdout


def test_statuses(work: Path, tests: list[str]) -> dict[str, str]:
    command = " ".join([PYTEST, "-rA", *map(shlex.quote, tests)])
    return statuses(run_tests(work, command, [PYTEST], timeout=300).output)


def instance(clone: Path, repo: str, sha: str) -> dict[str, object] | str:
    files = changes(clone, sha)
    source = [p for s, p, _ in files if p.endswith(".py") and not is_test(p)]
    tests = [p for s, p, _ in files if is_test(p) and p.endswith(".py")]
    if not tests or not 1 <= len(source) <= 3:
        return "not 1-3 source files and a test file"
    size = sum(n for _, p, n in files if p in source)
    if any(s != "M" for s, p, _ in files if p in source) or size > MAX_CHANGED_LINES:
        return "adds or deletes a source file, or too large"
    gold, test_patch = diff(clone, sha, source), diff(clone, sha, tests)
    root = Path(tempfile.mkdtemp(prefix="swebench-mine-"))
    try:
        work = checkout(clone, f"{sha}^", root / "work")
        if git(work, "apply", "-", stdin=test_patch, write=True).returncode != 0:
            return "test patch does not apply"
        before = test_statuses(work, tests)
        if git(work, "apply", "-", stdin=gold, write=True).returncode != 0:
            return "gold patch does not apply"
        after = test_statuses(work, tests)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    f2p = sorted(t for t, s in after.items() if s in PASSING and before.get(t) not in PASSING)
    p2p = sorted(t for t, s in after.items() if s in PASSING and before.get(t) in PASSING)
    if not f2p:
        return "no test fails before and passes after"
    parent = host_git(clone, "rev-parse", f"{sha}^").stdout.strip()
    message = host_git(clone, "log", "-1", "--format=%B", sha).stdout.strip()
    owner, name = repo.split("/")
    return {
        "instance_id": f"{owner}__{name}-{sha[:10]}",
        "repo": repo,
        "base_commit": parent,
        "commit": sha,
        "problem_statement": message,
        "patch": gold,
        "test_patch": test_patch,
        "FAIL_TO_PASS": f2p,
        "PASS_TO_PASS": p2p,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clone", type=Path, required=True)
    parser.add_argument("--repo", required=True, help="owner/name")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--limit", type=int, default=20)
    parser.add_argument("--scan", type=int, default=400, help="newest commits looked at")
    args = parser.parse_args()
    log = host_git(args.clone, "log", "--no-merges", f"-{args.scan}", "--format=%H %s").stdout.splitlines()
    kept = []
    for row in log:
        sha, _, subject = row.partition(" ")
        if not _FIX.search(subject):
            continue
        made = instance(args.clone, args.repo, sha)
        print(f"{sha[:10]} {'kept' if isinstance(made, dict) else made}: {subject[:70]}", file=sys.stderr)
        if isinstance(made, dict):
            kept.append(made)
            if len(kept) >= args.limit:
                break
    args.out.write_text("".join(json.dumps(k) + "\n" for k in kept))
    print(f"{len(kept)} instance(s) -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
