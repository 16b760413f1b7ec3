"""Benchmark: the repo map's build speed and memory against Universal Ctags, and its definition recall.

Part 1, on a copy of this machine's Python standard library (the Lib tree without site-packages): a cold
build (no cache, in a fresh interpreter, imports included) against `ctags` on the same file list in the same
run, alternating, median of ROUNDS; then a warm build (nothing changed), one file changed, and peak memory
(resource.getrusage ru_maxrss of the build process and of its largest parse worker).

Part 2, on a mixed-language tree copied from sources installed on this machine (Python packages in the
venv, npm's own JavaScript, rxjs's TypeScript from npm, Go 1.19's standard library from Debian, Rust crates
from Debian's librust-*-dev, the JDK's src.zip): definitions per language and kind against ctags, matched
by path, name, kind category and ctags' line falling inside our range.

A language whose sources are missing is left out of part 2. To get them all (done once on this machine):
  apt-get install golang-1.19-src librust-serde-dev librust-regex-syntax-dev librust-syn-dev
  npm install --prefix /tmp/b3corpus/npm rxjs@7.8.2

Part 1 also times the map a user sees (index, ranking and fitting, in a fresh process, net of start-up) warm,
with a query and after one file changed, and a warm `build_pack` on the corpus and on this repository.

Run: .venv/bin/python bench/repomap.py [--rounds N] [--corpus stdlib|three-languages] [--examples] [--skip-speed]
     [--skip-recall]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
import zipfile
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

from slmcode.config import Settings
from slmcode.repomap.build import load_index
from slmcode.repomap.cache import cache_path
from slmcode.repomap.discover import discover

CHILD = """
import json, resource, sys, time
t, c = time.perf_counter(), time.process_time()
from pathlib import Path
from slmcode.config import Settings
from slmcode.repomap.build import load_index, render_map
started, started_cpu = time.perf_counter(), time.process_time()
index = load_index(Path(sys.argv[1]), Settings())
seconds = time.perf_counter() - t
if len(sys.argv) > 2:  # the map a user sees: ranked and fitted, net of the interpreter's and imports' start-up
    render_map(index, query=sys.argv[2], budget_tokens=1000)
map_seconds, map_cpu = time.perf_counter() - started, time.process_time() - started_cpu
me, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"seconds": seconds, "files": len(index.files), "self_kb": me.ru_maxrss,
    "children_kb": workers.ru_maxrss, "map_seconds": map_seconds, "map_cpu": map_cpu,
    "cpu": me.ru_utime + me.ru_stime + workers.ru_utime + workers.ru_stime}))
"""

PACK_CHILD = """
import json, resource, sys, time
from pathlib import Path
from slmcode.config import Settings
from slmcode.packs.builder import build_pack
t, c = time.perf_counter(), time.process_time()
pack = build_pack("worker", settings=Settings(), workspace=Path(sys.argv[1]), query=sys.argv[2], system_prompt="x",
                  budget_tokens=4000)
print(json.dumps({"seconds": time.perf_counter() - t, "cpu": time.process_time() - c,
                  "self_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "tokens": pack.tokens}))
"""
PACK_QUERY = "the repo map cache stores reference names as a list and the pack ranks spans by BM25"

SITE = Path(sysconfig.get_paths()["purelib"])
MIXED_SOURCES: dict[str, list[Path]] = {
    "python": [SITE / name for name in ("rich", "click", "typer", "yaml")],
    "javascript": [Path("/usr/lib/node_modules/npm/lib")],
    "typescript": [Path("/tmp/b3corpus/npm/node_modules/rxjs/src")],
    "go": [Path("/usr/share/go-1.19/src") / p for p in ("net/http", "encoding/json", "strings", "bufio", "sort")],
    "rust": [Path("/usr/share/cargo/registry") / p for p in ("regex-syntax-0.6.27", "serde-1.0.152", "syn-1.0.107")],
}
JDK_SRC = Path("/usr/lib/jvm/temurin-25-jdk-amd64/lib/src.zip")
JAVA_PREFIX = "java.base/java/util/"

OUR_CATEGORY = {
    "class": "type",
    "struct": "type",
    "interface": "type",
    "enum": "type",
    "trait": "type",
    "type": "type",
    "object": "type",
    "union": "type",
    "function": "function",
    "method": "method",
}
CTAGS_TYPES = {
    "class",
    "struct",
    "interface",
    "enum",
    "trait",
    "typedef",
    "alias",
    "type",
    "union",
    "record",
    "annotation",
}


def ctags_category(language: str, tag: dict) -> str | None:
    kind, scope = tag.get("kind", ""), tag.get("scopeKind")
    if kind in CTAGS_TYPES:
        return "type"
    if language == "go" and kind == "func":
        return "function" if scope in (None, "package") else "method"
    if kind == "methodSpec" or (language == "python" and kind == "member"):
        return "method"
    if kind in ("method", "getter", "setter"):
        return "method"
    if kind in ("function", "generator"):
        return "function"
    return None


# ---------------------------------------------------------------- part 1: speed and memory on the stdlib


def copy_stdlib(dest: Path) -> Path:
    lib = Path(sysconfig.get_paths()["stdlib"])
    shutil.copytree(lib, dest, ignore=shutil.ignore_patterns("site-packages", "__pycache__"), symlinks=True)
    return dest


def copy_three_languages(dest: Path) -> Path:
    """The three-language corpus: the stdlib's Lib tree, npm's own lib/ (JavaScript) and java.util from the JDK."""
    copy_stdlib(dest / "stdlib")
    npm = Path("/usr/lib/node_modules/npm/lib")
    if npm.is_dir():
        shutil.copytree(npm, dest / "npm" / "lib", symlinks=True)
    if JDK_SRC.is_file():
        with zipfile.ZipFile(JDK_SRC) as archive:
            for name in archive.namelist():
                rest = name.removeprefix(JAVA_PREFIX)
                if name.startswith(JAVA_PREFIX) and "/" not in rest and rest.endswith(".java"):
                    (dest / "java").mkdir(parents=True, exist_ok=True)
                    (dest / "java" / rest).write_bytes(archive.read(name))
    return dest


def fresh(workspace: Path, query: str = "") -> dict:
    """load_index and render_map in a fresh interpreter: what `slmcode map` costs, net of start-up."""
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(workspace), query], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def pack_fresh(workspace: Path) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", PACK_CHILD, str(workspace), PACK_QUERY], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def cold_build(workspace: Path) -> dict:
    shutil.rmtree(cache_path(workspace).parent, ignore_errors=True)
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", CHILD, str(workspace)], capture_output=True, text=True, check=True)
    result = json.loads(out.stdout)
    result["wall"] = time.perf_counter() - start
    return result


def ctags_build(workspace: Path, files: list[str], out: Path) -> tuple[float, int]:
    listing = out.with_suffix(".list")
    listing.write_text("\n".join(files) + "\n")
    out.unlink(missing_ok=True)  # ctags refuses to overwrite a file that does not look like its own tags file
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        ["ctags", "-L", str(listing), "--output-format=json", "--fields=+neKZ", "-f", str(out)],
        cwd=workspace,
        check=True,
        capture_output=True,
    )
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return seconds, cpu, sum(1 for _ in out.open())


def timed(fn: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU seconds (this process) of one call."""
    start, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - start, time.process_time() - cpu


def speed(rounds: int, scratch: Path, corpus: str) -> None:
    workspace = copy_stdlib(scratch / "stdlib") if corpus == "stdlib" else copy_three_languages(scratch / "corpus")
    files = [c.path for c in discover(workspace, Settings().repomap_max_file_bytes).files]
    lines = sum((workspace / f).read_bytes().count(b"\n") for f in files)
    ours, theirs = [], []
    for _ in range(rounds):
        theirs.append(ctags_build(workspace, files, scratch / "tags.json"))
        ours.append(cold_build(workspace))
    settings = Settings()
    warm = [timed(lambda: load_index(workspace, settings)) for _ in range(rounds)]
    warm_map = [fresh(workspace) for _ in range(rounds)]
    query_map = [fresh(workspace, "why does the sort comparator reject a null key") for _ in range(rounds)]
    changed, changed_map = [], []
    for i in range(rounds):
        for into in (changed, changed_map):
            target = workspace / files[(i * 397 + len(into)) % len(files)]
            added = f"\n\ndef bench_added_{i}_{len(into)}():\n    pass\n"
            target.write_text(target.read_text(encoding="utf-8", errors="replace") + added)
            into.append(timed(lambda: load_index(workspace, settings)) if into is changed else fresh(workspace))
    warm_mem = fresh(workspace)
    packs = [pack_fresh(workspace) for _ in range(rounds)]

    def med(values: list[float]) -> float:
        return statistics.median(values)

    def span(values: list[float], digits: int = 3) -> str:
        return f"{min(values):.{digits}f}/{med(values):.{digits}f}"

    ctags_s, ctags_cpu = med([t for t, _, _ in theirs]), med([c for _, c, _ in theirs])
    cold_s, cold_cpu = med([r["seconds"] for r in ours]), med([r["cpu"] for r in ours])
    best_ratio = min(r["seconds"] for r in ours) / min(t for t, _, _ in theirs)
    cold_wall = med([r["wall"] for r in ours])
    peak_self = max(r["self_kb"] for r in ours) / 1024
    peak_worker = max(r["children_kb"] for r in ours) / 1024
    print(
        f"\nPart 1: {corpus} corpus, {len(files)} files, {lines:,} lines, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f} at the end; min/median of {rounds} where two figures"
    )
    print(f"{'measure':52} {'value':>14}  {'target':>8}")
    rows = [
        ("ctags -L (same files, json), wall s", f"{ctags_s:.2f}", ""),
        ("ctags CPU s", f"{ctags_cpu:.2f}", ""),
        ("cold build, load_index in a fresh process, s", f"{cold_s:.2f}", ""),
        ("cold build incl. interpreter start, wall s", f"{cold_wall:.2f}", ""),
        ("cold build CPU s (process + parse workers)", f"{cold_cpu:.2f}", ""),
        ("cold / ctags, wall (medians)", f"{cold_s / ctags_s:.2f}x", "<= 3x"),
        ("cold / ctags, wall (best of each)", f"{best_ratio:.2f}x", "<= 3x"),
        ("cold / ctags, CPU", f"{cold_cpu / ctags_cpu:.2f}x", ""),
        ("warm load_index in-process, wall s", span([w for w, _ in warm]), ""),
        ("warm map (index+rank+fit) fresh process net, wall s", span([r["map_seconds"] for r in warm_map]), "<= 0.3"),
        ("warm map, CPU s", span([r["map_cpu"] for r in warm_map]), ""),
        ("warm map with a query, wall s", span([r["map_seconds"] for r in query_map]), ""),
        ("warm map with a query, CPU s", span([r["map_cpu"] for r in query_map]), ""),
        ("one file changed, load_index in-process, wall s", span([w for w, _ in changed]), ""),
        ("one file changed, map fresh process net, wall s", span([r["map_seconds"] for r in changed_map]), "<= 0.5"),
        ("one file changed, map CPU s", span([r["map_cpu"] for r in changed_map]), ""),
        ("peak RSS cold: build process, MB", f"{peak_self:.0f}", "<= 400"),
        ("peak RSS cold: largest parse worker, MB", f"{peak_worker:.0f}", "<= 400"),
        ("peak RSS warm map process, MB", f"{warm_mem['self_kb'] / 1024:.0f}", "<= 400"),
        ("pack --budget 4000, warm, fresh process, wall s", span([p["seconds"] for p in packs], 2), ""),
        ("pack, CPU s", span([p["cpu"] for p in packs], 2), ""),
        ("pack peak RSS, MB", f"{max(p['self_kb'] for p in packs) / 1024:.0f}", "<= 400"),
        ("ctags tags / our definitions", f"{theirs[0][2]} / {sum_definitions(workspace)}", ""),
    ]
    for name, value, target in rows:
        print(f"{name:52} {value:>14}  {target:>8}")
    print("all times: time.perf_counter / time.process_time; memory: resource.getrusage ru_maxrss (peak resident set)")


def pack_speed(rounds: int) -> None:
    """A warm pack on this repository (the workspace the bench runs from), fresh process each time."""
    here = Path(__file__).resolve().parent.parent
    pack_fresh(here)  # warms the map's and the lexical index's caches
    packs = [pack_fresh(here) for _ in range(rounds)]
    seconds, cpu = [p["seconds"] for p in packs], [p["cpu"] for p in packs]
    print(
        f"\nPack on this repository (warm, --budget 4000, fresh process, net of start-up), load average "
        f"{os.getloadavg()[0]:.1f}: wall min/median {min(seconds):.2f}/{statistics.median(seconds):.2f} s "
        f"(target <= 1), CPU {min(cpu):.2f}/{statistics.median(cpu):.2f} s, "
        f"peak RSS {max(p['self_kb'] for p in packs) / 1024:.0f} MB"
    )


def sum_definitions(workspace: Path) -> int:
    return sum(len(f.definitions) for f in load_index(workspace, Settings()).files.values())


# ---------------------------------------------------------------- part 2: recall and precision vs ctags


def build_mixed(dest: Path) -> dict[str, str]:
    """Copy the sources into dest/<language>/...; returns folder -> language for what was found."""
    found = {}
    for language, roots in MIXED_SOURCES.items():
        for root in roots:
            if root.is_dir():
                shutil.copytree(
                    root,
                    dest / language / root.name,
                    symlinks=False,
                    dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__", "node_modules", "testdata"),
                )
                found[language] = language
    if JDK_SRC.is_file():
        with zipfile.ZipFile(JDK_SRC) as archive:
            for name in archive.namelist():
                rest = name.removeprefix(JAVA_PREFIX)
                if name.startswith(JAVA_PREFIX) and "/" not in rest and rest.endswith(".java"):
                    target = dest / "java" / rest
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(archive.read(name))
        found["java"] = "java"
    return found


def recall(scratch: Path, examples: bool) -> None:
    workspace = scratch / "mixed"
    languages = build_mixed(workspace)
    index = load_index(workspace, Settings())
    files = sorted(index.files)
    out = scratch / "mixed-tags.json"
    ctags_build(workspace, files, out)
    ours: dict[tuple[str, str], list[tuple[str, int, int]]] = defaultdict(list)
    ours_all: list[tuple[str, str, str, int, int]] = []
    for path, entry in index.files.items():
        for s in entry.definitions:
            if (category := OUR_CATEGORY.get(s.kind)) is not None:
                name = s.name.removeprefix("#")  # ctags names a JavaScript private method without its #
                ours[(path, name)].append((category, s.start, s.end))
                ours_all.append((path, name, category, s.start, s.end))
    theirs: list[tuple[str, str, str, int]] = []
    for line in out.open():
        tag = json.loads(line)
        if tag.get("_type") != "tag" or "line" not in tag:
            continue
        language = tag["path"].split("/")[0]
        if (category := ctags_category(language, tag)) is not None:
            theirs.append((tag["path"], tag["name"], category, tag["line"]))
    recalled: Counter[tuple[str, str]] = Counter()
    located: Counter[tuple[str, str]] = Counter()
    total: Counter[tuple[str, str]] = Counter()
    misses: dict[tuple[str, str], list[str]] = defaultdict(list)
    confirmed: set[tuple[str, str, str, int]] = set()
    for path, name, category, line in theirs:
        key = (path.split("/")[0], category)
        total[key] += 1
        candidates = [c for c in ours.get((path, name), []) if c[1] <= line <= c[2]]
        if candidates:
            located[key] += 1
        same = [c for c in candidates if c[0] == category]
        if same:
            recalled[key] += 1
            confirmed.update((path, name, category, c[1]) for c in same)
        else:
            misses[key].append(f"{path}:{line} {name}" + (f" (ours: {candidates[0][0]})" if candidates else ""))
    ours_total: Counter[tuple[str, str]] = Counter()
    ours_ok: Counter[tuple[str, str]] = Counter()
    extras: dict[tuple[str, str], list[str]] = defaultdict(list)
    for path, name, category, start, _ in ours_all:
        key = (path.split("/")[0], category)
        ours_total[key] += 1
        if (path, name, category, start) in confirmed:
            ours_ok[key] += 1
        else:
            extras[key].append(f"{path}:{start} {name}")
    print(f"\nPart 2: definitions vs ctags on a mixed tree of {len(files)} files ({', '.join(sorted(languages))})")
    print(f"{'language':11} {'kind':9} {'ctags':>6} {'ours':>6} {'recall':>7} {'precision':>9} {'located':>8}")
    keys = sorted(set(total) | set(ours_total))
    for key in keys:
        r = recalled[key] / total[key] if total[key] else float("nan")
        p = ours_ok[key] / ours_total[key] if ours_total[key] else float("nan")
        loc = located[key] / total[key] if total[key] else float("nan")
        print(f"{key[0]:11} {key[1]:9} {total[key]:6} {ours_total[key]:6} {r:7.3f} {p:9.3f} {loc:8.3f}")
    for category in ("type", "function", "method", "all"):

        def pick(counter: Counter[tuple[str, str]], category: str = category) -> int:
            return sum(v for k, v in counter.items() if category in ("all", k[1]))

        t, r, o, ok, loc = (pick(c) for c in (total, recalled, ours_total, ours_ok, located))
        print(f"{'ALL':11} {category:9} {t:6} {o:6} {r / max(t, 1):7.3f} {ok / max(o, 1):9.3f} {loc / max(t, 1):8.3f}")
    print("recall: ctags tags we report with the same kind and a range holding ctags' line; located: any kind;")
    print("precision: our definitions ctags confirms. type = class/struct/interface/enum/trait/type alias.")
    if examples:
        for key in keys:
            print(f"\n{key}: missed {len(misses[key])}, e.g. {misses[key][:6]}")
            print(f"{key}: extra {len(extras[key])}, e.g. {extras[key][:6]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--examples", action="store_true", help="print missed and extra definitions")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--skip-recall", action="store_true")
    parser.add_argument(
        "--corpus",
        choices=("stdlib", "three-languages"),
        default="stdlib",
        help="part 1's tree: the stdlib, or the stdlib + npm lib + java.util",
    )
    args = parser.parse_args()
    if shutil.which("ctags") is None:
        raise SystemExit("ctags (Universal Ctags) is not installed")
    with tempfile.TemporaryDirectory(prefix="repomap-bench-") as tmp:
        if not args.skip_speed:
            speed(args.rounds, Path(tmp), args.corpus)
            pack_speed(args.rounds)
        if not args.skip_recall:
            recall(Path(tmp), args.examples)


if __name__ == "__main__":
    main()
