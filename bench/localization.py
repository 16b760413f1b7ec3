"""Localisation benchmark: does the pack built from a change's description hold the lines the change touched?

For every non-merge commit of the given git repositories (default: this one) the parent tree is exported to a
temporary folder, the commit message is the query, and three contexts of the same token budget are built:
  pack        build_pack("worker", query=message, budget_tokens=B) with the real repo map
  bm25-files  BM25 over whole files, best first, until B is full (the last file cut to fit)
  bm25-chunks BM25 over 40-line chunks, best first, until B is full (the last chunk cut to fit)
All three see the same candidate files: those the repo map indexes at the parent (code files). A hunk counts
when its file exists at the parent and is a candidate; its parent lines are [start, start+len-1], or, for a
pure insertion, the two lines around the insertion point.
  hunk recall  share of hunks with at least one parent line inside the context's code
  hunk cover   share of hunks with all their parent lines inside the context's code
  file recall  share of (commit, touched file) pairs with some code of that file in the context

The weights of the pack were chosen on this repository's own commits, so the table is printed three times:
over all changes, over the older half and over the newer half (by commit date, per repository). A change that
only helps on the commits it was tuned on shows up as a gap between the halves.

Usage: python bench/localization.py [REPO ...] [--budgets 2000,4000,8000] [--limit N] [--keep DIR] [--dump FILE]
Prints a table; nothing here is a test and nothing asserts. --dump writes one JSON line per change and budget
with each method's shown ranges and score, to see where one method wins and another loses.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from rank_bm25 import BM25Okapi

from slmcode.budget.tokens import default_counter
from slmcode.config import Settings
from slmcode.localize.lexical import terms
from slmcode.packs.builder import build_pack
from slmcode.repomap.build import load_index

CHUNK_LINES = 40
SYSTEM_PROMPT = "You are the worker of a small coding team. Make the change the task asks for."
_HUNK_RE = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@", re.MULTILINE)


@dataclass(frozen=True)
class Hunk:
    path: str
    start: int
    end: int


@dataclass(frozen=True)
class Change:
    repo: Path
    sha: str
    parent: str
    message: str
    hunks: tuple[Hunk, ...]


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def changes(repo: Path) -> list[Change]:
    found = []
    for line in git(repo, "log", "--no-merges", "--format=%H %P").splitlines():
        parts = line.split()
        if len(parts) != 2:
            continue  # the root commit has no parent to localise against
        sha, parent = parts
        message = git(repo, "log", "-1", "--format=%B", sha).strip()
        hunks: list[Hunk] = []
        diff = git(repo, "diff", "-U0", "--no-renames", "--diff-filter=M", parent, sha)
        for file_diff in re.split(r"^diff --git ", diff, flags=re.MULTILINE)[1:]:
            path_match = re.search(r"^--- a/(.+)$", file_diff, re.MULTILINE)
            if path_match is None:
                continue
            for m in _HUNK_RE.finditer(file_diff):
                start, length = int(m.group(1)), int(m.group(2) or "1")
                hunks.append(Hunk(path_match.group(1), max(1, start), start + 1 if length == 0 else start + length - 1))
        found.append(Change(repo, sha, parent, message, tuple(hunks)))
    return found


def export(repo: Path, sha: str, target: Path) -> None:
    data = subprocess.run(["git", "-C", str(repo), "archive", sha], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        archive.extractall(target, filter="data")


def read_all(root: Path, paths: list[str]) -> dict[str, list[str]]:
    return {p: (root / p).read_text(encoding="utf-8", errors="replace").splitlines() for p in paths}


Shown = dict[str, list[tuple[int, int]]]


def fill(units: list[tuple[str, int, int]], files: dict[str, list[str]], budget: int) -> Shown:
    """Take (path, start, end) units in order until `budget` tokens are used; the last one cut to fit."""
    counter = default_counter()
    used = 0
    shown: dict[str, list[tuple[int, int]]] = {}
    for path, start, end in units:
        lines = files[path][start - 1 : end]
        text = f"### {path}\n" + "\n".join(lines)
        cost = counter.count(text) + 2
        if used + cost > budget:
            low, high = 0, len(lines)
            while low < high:  # longest head that fits
                mid = (low + high + 1) // 2
                if counter.count(f"### {path}\n" + "\n".join(lines[:mid])) + 2 <= budget - used:
                    low = mid
                else:
                    high = mid - 1
            if low:
                shown.setdefault(path, []).append((start, start + low - 1))
            break
        used += cost
        shown.setdefault(path, []).append((start, end))
    return shown


def bm25_files(files: dict[str, list[str]], query: str) -> list[tuple[str, int, int]]:
    """Whole files, best first."""
    paths = sorted(files)
    docs = [terms(p.replace("/", " ")) + terms("\n".join(files[p])) for p in paths]
    scores = BM25Okapi(docs).get_scores(terms(query))
    ranked = sorted(range(len(paths)), key=lambda i: (-scores[i], paths[i]))
    return [(paths[i], 1, max(1, len(files[paths[i]]))) for i in ranked]


def bm25_chunks(files: dict[str, list[str]], query: str) -> list[tuple[str, int, int]]:
    """40-line chunks, best first."""
    units = []
    for p in sorted(files):
        n = len(files[p])
        units += [(p, s, min(n, s + CHUNK_LINES - 1)) for s in range(1, n + 1, CHUNK_LINES)]
    docs = [terms(p.replace("/", " ")) + terms("\n".join(files[p][s - 1 : e])) for p, s, e in units]
    scores = BM25Okapi(docs).get_scores(terms(query))
    ranked = sorted(range(len(units)), key=lambda i: (-scores[i], units[i]))
    return [units[i] for i in ranked]


def score(hunks: list[Hunk], shown: dict[str, list[tuple[int, int]]]) -> tuple[int, int, set[str]]:
    """(hunks touched, hunks covered, files shown among the hunks' files)."""

    def inside(line: int, path: str) -> bool:
        return any(s <= line <= e for s, e in shown.get(path, []))

    touched = sum(any(inside(n, h.path) for n in range(h.start, h.end + 1)) for h in hunks)
    whole = sum(all(inside(n, h.path) for n in range(h.start, h.end + 1)) for h in hunks)
    return touched, whole, {h.path for h in hunks if h.path in shown}


Totals = dict[tuple[str, int], list[int]]  # (method, budget) -> [touched, covered, files, hunks, touched files]


def add(into: Totals, other: Totals) -> None:
    for key, row in other.items():
        into.setdefault(key, [0] * len(row))
        into[key] = [a + b for a, b in zip(into[key], row, strict=True)]


def print_table(title: str, totals: Totals, methods: tuple[str, ...], budgets: list[int]) -> None:
    some = totals.get((methods[0], budgets[0]), [0] * 5)
    print(f"{title}: hunks {some[3]}, touched files {some[4]}")
    print(f"{'budget':>6}  {'method':<12} {'hunk recall':>11} {'hunk cover':>10} {'file recall':>11}")
    for budget in budgets:
        for method in methods:
            touched, whole, files, n_hunks, n_files = totals.get((method, budget), [0] * 5)
            print(
                f"{budget:>6}  {method:<12} {touched / max(1, n_hunks):>11.3f} {whole / max(1, n_hunks):>10.3f} "
                f"{files / max(1, n_files):>11.3f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("repos", nargs="*", default=[str(Path(__file__).resolve().parents[1])])
    parser.add_argument("--budgets", default="2000,4000,8000")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--keep", default="", help="export parents under this folder and reuse them (warm index)")
    parser.add_argument("--dump", default="", help="write per-change results as JSON lines to this file")
    args = parser.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    methods = ("pack", "bm25-files", "bm25-chunks")
    per_change: list[Totals] = []  # oldest first within each repository
    skipped_hunks = 0
    halves: tuple[list[Totals], list[Totals]] = ([], [])
    dumped: list[str] = []
    settings = Settings()
    started = time.perf_counter()
    for repo in args.repos:
        todo = [c for c in changes(Path(repo)) if c.hunks][: args.limit or None]
        results: list[Totals] = []
        for change in reversed(todo):  # oldest first, so the halves are older and newer
            with tempfile.TemporaryDirectory() as folder:
                root = Path(args.keep) / change.parent if args.keep else Path(folder)
                if not (root / ".exported").is_file():
                    export(change.repo, change.parent, root)
                    (root / ".exported").write_text(change.parent)
                index = load_index(root, settings)
                files = read_all(root, sorted(index.files))
                by_files, by_chunks = bm25_files(files, change.message), bm25_chunks(files, change.message)
                hunks = [h for h in change.hunks if h.path in index.files]
                skipped_hunks += len(change.hunks) - len(hunks)
                if not hunks:
                    continue
                result: Totals = {}
                for budget in budgets:
                    pack = build_pack(
                        "worker",
                        settings=settings,
                        workspace=root,
                        query=change.message,
                        system_prompt=SYSTEM_PROMPT,
                        index=index,
                        budget_tokens=budget,
                    )
                    shown_pack: dict[str, list[tuple[int, int]]] = {}
                    for e in pack.excerpts:
                        shown_pack.setdefault(e.path, []).append((e.start, e.end))
                    contexts = {
                        "pack": shown_pack,
                        "bm25-files": fill(by_files, files, budget),
                        "bm25-chunks": fill(by_chunks, files, budget),
                    }
                    for method, shown in contexts.items():
                        touched, whole, hit_files = score(hunks, shown)
                        result[(method, budget)] = [
                            touched,
                            whole,
                            len(hit_files),
                            len(hunks),
                            len({h.path for h in hunks}),
                        ]
                    if args.dump:
                        dumped.append(
                            json.dumps(
                                {
                                    "sha": change.sha,
                                    "budget": budget,
                                    "message": change.message,
                                    "hunks": [[h.path, h.start, h.end] for h in hunks],
                                    "sections": {s.name: s.tokens for s in pack.parts},
                                    "shown": contexts,
                                    "scores": {m: result[(m, budget)] for m in methods},
                                }
                            )
                        )
                results.append(result)
            print(f"  {change.sha[:8]} {len(hunks):3d} hunks  {change.message.splitlines()[0][:70]}", file=sys.stderr)
        middle = len(results) // 2
        halves[0].extend(results[:middle])
        halves[1].extend(results[middle:])
        per_change.extend(results)
    if args.dump:
        Path(args.dump).write_text("".join(f"{row}\n" for row in dumped), encoding="utf-8")
    overall: Totals = {}
    older: Totals = {}
    newer: Totals = {}
    for into, part in ((overall, per_change), (older, halves[0]), (newer, halves[1])):
        for result in part:
            add(into, result)
    print(
        f"changes {len(per_change)} ({len(halves[0])} older, {len(halves[1])} newer), "
        f"+{skipped_hunks} hunks outside the indexed files, not counted; {time.perf_counter() - started:.0f} s"
    )
    for title, totals in (("all", overall), ("older half", older), ("newer half", newer)):
        print_table(title, totals, methods, budgets)


if __name__ == "__main__":
    main()
