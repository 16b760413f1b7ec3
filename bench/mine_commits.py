"""Mine the localisation development set: real bug-fix commits of public repositories, as SHAs, paths and lines.

The repositories are local bare mirrors (the agent's `fetch` tool gives `github:OWNER/NAME` as
/work/.mirror/OWNER+NAME/repo; any `git clone --mirror https://github.com/OWNER/NAME` works too, passed with
--mirrors DIR laid out as DIR/OWNER+NAME/repo). From each one's history, newest first, a commit is kept when:
  - it is not a merge and its subject says it fixes something (fix, bug, crash, error, ...);
  - it modifies 1 to 3 source files that are not tests, generated or vendored, and adds or deletes none;
  - its diff is small (at most MAX_CHANGED_LINES changed lines over those files): a fix, not a rewrite.
Test files the commit also touches are ignored (the bench asks where the fix goes, not where it is tested).

bench/devset.jsonl holds one line per commit and ONLY: repo, sha, parent, half, language, the query (the
commit's subject line) and the changed old-side line ranges per path, never code. A pure insertion of lines
is recorded as the two parent lines around the insertion point. The half is "tune" or "report", by repository,
so weights tuned on one half are reported on repositories they never saw.

Usage: python bench/mine_commits.py [--mirrors /work/.mirror] [--per-repo 15] [--out bench/devset.jsonl]
A missing mirror is skipped with a line on stderr.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

# (repository, language, half). Never psf/requests, pallets/click, spf13/cobra, gin-gonic/gin, BurntSushi/ripgrep,
# expressjs/express, colinhacks/zod or google/gson: those are kept for an independent check.
REPOSITORIES = (
    ("encode/httpx", "python", "tune"),
    ("Textualize/rich", "python", "report"),
    ("labstack/echo", "go", "tune"),
    ("urfave/cli", "go", "report"),
    ("sharkdp/fd", "rust", "tune"),
    ("serde-rs/json", "rust", "report"),
    ("axios/axios", "javascript", "tune"),
    ("markedjs/marked", "javascript", "report"),
    ("honojs/hono", "typescript", "tune"),
    ("immerjs/immer", "typescript", "report"),
    ("jhy/jsoup", "java", "tune"),
    ("square/javapoet", "java", "report"),
    # Added later, tuning only: more Python (the weakest language) to tune on without touching the report half.
    ("marshmallow-code/marshmallow", "python", "tune"),
    ("python-attrs/attrs", "python", "tune"),
    ("pallets/jinja", "python", "tune"),
)
EXTENSIONS = {
    "python": (".py",),
    "go": (".go",),
    "rust": (".rs",),
    "javascript": (".js", ".mjs", ".cjs", ".jsx"),
    "typescript": (".ts", ".tsx", ".mts", ".cts"),
    "java": (".java",),
}
MAX_SOURCE_FILES = 3
MAX_CHANGED_LINES = 120
_FIX_RE = re.compile(
    r"\b(fix(es|ed|ing)?|bug(s|fix)?|crash(es|ed)?|error(s)?|incorrect|wrong|broken|regression|"
    r"panic(s)?|exception|issue)\b",
    re.IGNORECASE,
)
_SKIP_SUBJECT_RE = re.compile(
    r"\b(typos?|docs?|readme|changelog|lints?|clippy|mypy|typing|warnings?|tests?|"
    r"format(ting)?|bump|release|revert|ci|deps?)\b",
    re.IGNORECASE,
)
_TEST_RE = re.compile(
    r"(^|/)(tests?|__tests__|testdata|test_?data|fixtures?|spec|specs|benches|examples?|docs?)/"
    r"|(^|/)test_[^/]*\.py$|_test\.(py|go)$|\.(test|spec)\.[cm]?[jt]sx?$|Tests?\.java$"
    r"|(^|/)src/test/",
    re.IGNORECASE,
)
_GENERATED_RE = re.compile(
    r"(^|/)(dist|build|vendor|node_modules|out|target|gen|generated|lib/deno|deno_dist)/"
    r"|\.min\.js$|\.d\.ts$|_pb2\.py$|\.pb\.go$|_generated\."
    r"|(^|/)[^/]*\.config\.[cm]?[jt]s$",
    re.IGNORECASE,
)
_HUNK_RE = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@", re.MULTILINE)


def git(mirror: Path, *args: str) -> str:
    return subprocess.run(
        ["git", f"--git-dir={mirror}", *args], check=True, capture_output=True, text=True, errors="replace"
    ).stdout


def is_source(path: str, language: str) -> bool:
    return path.endswith(EXTENSIONS[language]) and not _TEST_RE.search(path) and not _GENERATED_RE.search(path)


def old_ranges(mirror: Path, parent: str, sha: str, path: str) -> list[list[int]]:
    """The parent-side line ranges the commit changed in `path`; an insertion as the two lines around it."""
    diff = git(mirror, "diff", "-U0", "--no-renames", parent, sha, "--", path)
    ranges = []
    for m in _HUNK_RE.finditer(diff):
        start, length = int(m.group(1)), int(m.group(2) or "1")
        ranges.append([max(1, start), start + 1] if length == 0 else [start, start + length - 1])
    return ranges


def mine(mirror: Path, repo: str, language: str, half: str, per_repo: int) -> list[dict]:
    rows: list[dict] = []
    log = git(mirror, "log", "--no-merges", "--format=%H %P%x09%s", "HEAD")
    for line in log.splitlines():
        if len(rows) >= per_repo:
            break
        head, _, subject = line.partition("\t")
        shas = head.split()
        if len(shas) != 2 or not _FIX_RE.search(subject) or _SKIP_SUBJECT_RE.search(subject):
            continue
        sha, parent = shas
        stat = git(mirror, "diff", "--numstat", "--no-renames", "--diff-filter=ADM", parent, sha)
        status = git(mirror, "diff", "--name-status", "--no-renames", parent, sha)
        kinds = dict(reversed(row.split("\t", 1)) for row in status.splitlines() if "\t" in row)
        sources, changed = [], 0
        for row in stat.splitlines():
            added, deleted, path = row.split("\t", 2)
            if not is_source(path, language):
                continue  # tests, docs, generated or vendored copies: not where the fix is asked for
            if kinds.get(path) != "M" or added == "-":
                sources = []
                break  # a fix that adds or deletes source files is not a localisation question
            sources.append(path)
            changed += int(added) + int(deleted)
        if not 1 <= len(sources) <= MAX_SOURCE_FILES or changed > MAX_CHANGED_LINES:
            continue
        hunks = {path: old_ranges(mirror, parent, sha, path) for path in sorted(sources)}
        rows.append(
            {
                "repo": repo,
                "sha": sha,
                "parent": parent,
                "half": half,
                "language": language,
                "query": subject.strip(),
                "hunks": hunks,
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mirrors", default="/work/.mirror")
    parser.add_argument("--per-repo", type=int, default=15)
    parser.add_argument("--out", default=str(Path(__file__).with_name("devset.jsonl")))
    args = parser.parse_args()
    rows: list[dict] = []
    for repo, language, half in REPOSITORIES:
        mirror = Path(args.mirrors) / repo.replace("/", "+") / "repo"
        if not mirror.is_dir():
            print(f"skip {repo}: no mirror at {mirror} (fetch github:{repo})", file=sys.stderr)
            continue
        found = mine(mirror, repo, language, half, args.per_repo)
        print(f"{repo:<20} {language:<10} {half:<6} {len(found)} commits", file=sys.stderr)
        rows += found
    Path(args.out).write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in rows), encoding="utf-8")
    print(f"{len(rows)} commits -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
