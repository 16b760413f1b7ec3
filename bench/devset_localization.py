"""Localisation on the development set: real bug-fix commits of public repositories (bench/devset.jsonl, mined by
bench/mine_commits.py), reported per language on the half of the repositories the pack was never tuned on.

For every commit the parent tree is exported from the repository's local mirror (`git archive`) and the commit's
subject is the query. In the same run, at each budget, four contexts of that many tokens are compared:
  pack         build_pack("worker", query=subject, budget_tokens=B) with the real repo map, retrieval_semantic off
  pack+semantic  the same with the semantic channel on (localize/semantic.py), where its package imports
  bm25-files   BM25 over whole files, best first, until B is full
  bm25-chunks  BM25 over 40-line chunks, best first, until B is full
  aider-map    (with --aider PYTHON) aider's RepoMap at B tokens, the lines its map shows; see
               bench/aider_repomap_shown.py for the offline set-up
All see the same candidate files: those the repo map indexes at the parent. Scores as in bench/localization.py:
hunk recall (some changed line shown), all-covered (every changed line shown), file recall (some code of a changed
file shown), and by function as the published tables count (SWE-bench Lite's function Acc@k): the changed functions
are the innermost function or method (from the repo map's symbols) enclosing each changed line; function recall is
the share of them with some of their lines shown, all-functions the share of commits (among those changing some
function) with every changed function shown. A change outside any function counts for hunks and files only.

Mirrors: /work/.mirror/OWNER+NAME/repo (the agent's `fetch github:OWNER/NAME`), or any `git clone --mirror` laid out
the same way under --mirrors. A missing mirror is skipped with a line.

Usage: python bench/devset_localization.py [--half report|tune|all] [--budgets 2000,4000,8000] [--limit N]
       [--keep DIR] [--dump FILE] [--set MODULE.NAME=VALUE ...]
--keep exports parents under DIR and reuses them (and their repo-map caches) across runs.
"""

from __future__ import annotations

import argparse
import importlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import traceback
from pathlib import Path

from localization import (
    SYSTEM_PROMPT,
    Hunk,
    Shown,
    Totals,
    add,
    bm25_chunks,
    bm25_files,
    fill,
    read_all,
    score,
)

from slmcode.config import Settings
from slmcode.localize import semantic
from slmcode.packs.builder import build_pack
from slmcode.repomap.build import load_index
from slmcode.repomap.model import Symbol, SymbolIndex

METHODS = ("pack", "pack+semantic", "bm25-files", "bm25-chunks")
DEVSET = Path(__file__).with_name("devset.jsonl")
FUNCTION_KINDS = frozenset({"function", "method"})


def changed_functions(index: SymbolIndex, hunks: list[Hunk]) -> list[Symbol]:
    """The innermost function or method around each changed line, each once, in (path, line) order."""
    found: dict[tuple[str, int], Symbol] = {}
    for hunk in hunks:
        functions = [s for s in index.definitions(hunk.path) if s.kind in FUNCTION_KINDS]
        for line in range(hunk.start, hunk.end + 1):
            around = [s for s in functions if s.start <= line <= s.end]
            if around:
                inner = min(around, key=lambda s: (s.end - s.start, -s.start))
                found[(inner.path, inner.start)] = inner
    return [found[key] for key in sorted(found)]


def functions_shown(functions: list[Symbol], shown: Shown) -> int:
    """How many of `functions` have some line in the context."""
    return sum(any(s <= f.end and f.start <= e for s, e in shown.get(f.path, [])) for f in functions)


def export(mirror: Path, sha: str, target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", f"--git-dir={mirror}", "archive", sha], check=True, capture_output=True).stdout
    with tempfile.TemporaryFile() as data:
        data.write(archive)
        data.seek(0)
        with tarfile.open(fileobj=data) as tar:
            tar.extractall(target, filter="data")


def aider_shown(python: str, root: Path, query: str, budgets: list[int], files: list[str]) -> dict[int, Shown]:
    """What aider's RepoMap shows at each budget, from bench/aider_repomap_shown.py under aider's own venv."""
    job = json.dumps({"root": str(root), "query": query, "budgets": budgets, "files": files})
    out = subprocess.run(
        [python, str(Path(__file__).with_name("aider_repomap_shown.py"))],
        input=job,
        text=True,
        capture_output=True,
        check=True,
        timeout=600,
    ).stdout
    return {int(b): {p: [tuple(r) for r in rs] for p, rs in shown.items()} for b, shown in json.loads(out).items()}


def run_commit(
    row: dict, root: Path, budgets: list[int], settings: Settings, dumped: list[str] | None, aider: str = ""
) -> tuple[Totals, float]:
    """One commit's totals per (method, budget) and the seconds its packs took."""
    index = load_index(root, settings)
    hunks = [
        Hunk(path, start, end) for path, ranges in row["hunks"].items() for start, end in ranges if path in index.files
    ]
    if not hunks:
        return {}, 0.0
    functions = changed_functions(index, hunks)
    files = read_all(root, sorted(index.files))
    query = row["query"]
    by_files, by_chunks = bm25_files(files, query), bm25_chunks(files, query)
    by_aider = aider_shown(aider, root, query, budgets, sorted(index.files)) if aider else {}
    result: Totals = {}
    seconds = 0.0
    for budget in budgets:
        contexts: dict[str, Shown] = {}
        for method, variant in pack_settings(settings).items():
            started = time.perf_counter()
            pack = build_pack(
                "worker",
                settings=variant,
                workspace=root,
                query=query,
                system_prompt=SYSTEM_PROMPT,
                index=index,
                budget_tokens=budget,
            )
            seconds += time.perf_counter() - started
            shown_pack: dict[str, list[tuple[int, int]]] = {}
            for e in pack.excerpts:
                shown_pack.setdefault(e.path, []).append((e.start, e.end))
            contexts[method] = shown_pack
        contexts |= {"bm25-files": fill(by_files, files, budget), "bm25-chunks": fill(by_chunks, files, budget)}
        if aider:
            contexts["aider-map"] = by_aider.get(budget, {})
        for method, shown in contexts.items():
            touched, whole, hit_files = score(hunks, shown)
            found = functions_shown(functions, shown)
            result[(method, budget)] = [
                touched,
                whole,
                len(hit_files),
                len(hunks),
                len({h.path for h in hunks}),
                found,
                len(functions),
                int(bool(functions) and found == len(functions)),
                int(bool(functions)),
            ]
        code = sum(s.tokens for s in pack.parts if s.name == "excerpts")  # the last variant's
        result[("fill", budget)] = [pack.tokens, budget, code, 0, 0]
        if dumped is not None:
            dumped.append(
                json.dumps(
                    {
                        "repo": row["repo"],
                        "sha": row["sha"],
                        "budget": budget,
                        "query": query,
                        "hunks": [[h.path, h.start, h.end] for h in hunks],
                        "sections": {s.name: s.tokens for s in pack.parts},
                        "shown": contexts,
                        "scores": {m: result[(m, budget)] for m in contexts},
                    }
                )
            )
    return result, seconds / len(budgets) / len(pack_settings(settings))


def pack_settings(settings: Settings) -> dict[str, Settings]:
    """The pack without the semantic channel, and with it where its package imports."""
    variants = {"pack": settings.model_copy(update={"retrieval_semantic": "off"})}
    if semantic.embedder() is not None:
        variants["pack+semantic"] = settings.model_copy(update={"retrieval_semantic": "on"})
    return variants


def print_tables(by_language: dict[str, Totals], budgets: list[int], methods: tuple[str, ...]) -> None:
    languages = sorted(by_language)
    overall: Totals = {}
    for totals in by_language.values():
        add(overall, totals)
    print(
        f"{'language':<11} {'budget':>6}  {'method':<14} {'hunks':>5} {'hunk recall':>11} {'all-covered':>11} "
        f"{'file recall':>11} {'functions':>9} {'fn recall':>9} {'all-fns':>7}"
    )
    for language, totals in [*((lang, by_language[lang]) for lang in languages), ("ALL", overall)]:
        for budget in budgets:
            for method in methods:
                touched, whole, files, n_hunks, n_files, fns, n_fns, all_fns, n_commits = totals.get(
                    (method, budget), [0] * 9
                )
                print(
                    f"{language:<11} {budget:>6}  {method:<14} {n_hunks:>5} {touched / max(1, n_hunks):>11.3f} "
                    f"{whole / max(1, n_hunks):>11.3f} {files / max(1, n_files):>11.3f} {n_fns:>9} "
                    f"{fns / max(1, n_fns):>9.3f} {all_fns / max(1, n_commits):>7.3f}"
                )
    for budget in budgets:
        used, given, code = overall.get(("fill", budget), [0, 0, 0])[:3]
        print(
            f"at {budget}: pack tokens / budget {used / max(1, given):.3f}, code excerpts / budget "
            f"{code / max(1, given):.3f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--devset", default=str(DEVSET))
    parser.add_argument("--mirrors", default="/work/.mirror")
    parser.add_argument("--half", default="report", choices=("report", "tune", "all"))
    parser.add_argument("--budgets", default="2000,4000,8000")
    parser.add_argument("--limit", type=int, default=0, help="at most N commits per repository")
    parser.add_argument("--repo", default="", help="only this repository (owner/name)")
    parser.add_argument("--keep", default="", help="export parents under this folder and reuse them")
    parser.add_argument("--dump", default="", help="write per-commit results as JSON lines to this file")
    parser.add_argument(
        "--aider",
        default="",
        metavar="PYTHON",
        help="python of a venv with aider-chat: adds aider's RepoMap (bench/aider_repomap_shown.py)",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="MODULE.NAME=VALUE",
        help="override a packs constant for this run, e.g. priors.TEST_WEIGHT=0.5 (for tuning)",
    )
    args = parser.parse_args()
    for assignment in args.set:
        target, _, value = assignment.partition("=")
        module, _, name = target.rpartition(".")
        owner = importlib.import_module(f"slmcode.packs.{module}")
        kind = type(getattr(owner, name))
        # bool("False") is True: a switch is on only when spelled so
        setattr(owner, name, value.lower() in ("1", "true", "yes") if kind is bool else kind(value))
    budgets = [int(b) for b in args.budgets.split(",")]
    rows = [json.loads(line) for line in Path(args.devset).read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = [r for r in rows if args.half in ("all", r["half"]) and args.repo in ("", r["repo"])]
    settings = Settings()
    by_language: dict[str, Totals] = {}
    taken: dict[str, int] = {}
    dumped: list[str] = []
    errors, counted, pack_seconds, missing = 0, 0, 0.0, set()
    started = time.perf_counter()
    for row in rows:
        mirror = Path(args.mirrors) / row["repo"].replace("/", "+") / "repo"
        if not mirror.is_dir():
            if row["repo"] not in missing:
                print(f"skip {row['repo']}: no mirror at {mirror} (fetch github:{row['repo']})", file=sys.stderr)
            missing.add(row["repo"])
            continue
        if args.limit and taken.get(row["repo"], 0) >= args.limit:
            continue
        taken[row["repo"]] = taken.get(row["repo"], 0) + 1
        folder = tempfile.mkdtemp(prefix="devset-")
        root = Path(args.keep) / row["repo"].replace("/", "+") / row["parent"] if args.keep else Path(folder)
        try:
            if not (root / ".exported").is_file():
                export(mirror, row["parent"], root)
                (root / ".exported").write_text(row["parent"])
            result, seconds = run_commit(row, root, budgets, settings, dumped if args.dump else None, args.aider)
        except Exception:  # a bench counts failures; it does not stop at the first
            errors += 1
            print(f"ERROR {row['repo']} {row['sha'][:8]}\n{traceback.format_exc()}", file=sys.stderr)
            continue
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        if not result:
            continue
        counted += 1
        pack_seconds += seconds
        add(by_language.setdefault(row["language"], {}), result)
        print(f"  {row['repo']:<18} {row['sha'][:8]} {row['query'][:60]}", file=sys.stderr)
    if args.dump:
        Path(args.dump).write_text("".join(f"{line}\n" for line in dumped), encoding="utf-8")
    print(
        f"half {args.half}: {counted} commits from {len(taken) - len(missing & set(taken))} repositories, "
        f"errors {errors}, mean seconds per pack {pack_seconds / max(1, counted):.2f}, "
        f"total {time.perf_counter() - started:.0f} s"
    )
    methods = tuple(m for m in METHODS if m != "pack+semantic" or semantic.embedder() is not None)
    print_tables(by_language, budgets, (*methods, "aider-map") if args.aider else methods)


if __name__ == "__main__":
    main()
