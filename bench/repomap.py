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

Run: /work/venv/bin/python bench/repomap.py [--rounds N] [--examples] [--skip-speed]
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
from slmcode.packs.repomap.build import load_index
from slmcode.packs.repomap.cache import cache_path
from slmcode.packs.repomap.discover import discover

CHILD = """
import json, resource, sys, time
t = time.perf_counter()
from pathlib import Path
from slmcode.config import Settings
from slmcode.packs.repomap.build import load_index
index = load_index(Path(sys.argv[1]), Settings())
seconds = time.perf_counter() - t
me, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"seconds": seconds, "files": len(index.files), "self_kb": me.ru_maxrss,
    "children_kb": workers.ru_maxrss,
    "cpu": me.ru_utime + me.ru_stime + workers.ru_utime + workers.ru_stime}))
"""

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
    "class": "type", "struct": "type", "interface": "type", "enum": "type", "trait": "type", "type": "type",
    "object": "type", "union": "type", "function": "function", "method": "method",
}
CTAGS_TYPES = {"class", "struct", "interface", "enum", "trait", "typedef", "alias", "type", "union", "record",
               "annotation"}


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
    subprocess.run(["ctags", "-L", str(listing), "--output-format=json", "--fields=+neKZ", "-f", str(out)],
                   cwd=workspace, check=True, capture_output=True)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return seconds, cpu, sum(1 for _ in out.open())


def timed(fn: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU seconds (this process) of one call."""
    start, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - start, time.process_time() - cpu


def speed(rounds: int, scratch: Path) -> None:
    workspace = copy_stdlib(scratch / "stdlib")
    files = [c.path for c in discover(workspace, Settings().repomap_max_file_bytes).files]
    lines = sum((workspace / f).read_bytes().count(b"\n") for f in files)
    ours, theirs = [], []
    for _ in range(rounds):
        theirs.append(ctags_build(workspace, files, scratch / "tags.json"))
        ours.append(cold_build(workspace))
    settings = Settings()
    warm = [timed(lambda: load_index(workspace, settings)) for _ in range(rounds)]
    changed = []
    for i in range(rounds):
        target = workspace / files[(i * 397) % len(files)]
        added = f"\n\ndef bench_added_{i}():\n    pass\n"
        target.write_text(target.read_text(encoding="utf-8", errors="replace") + added)
        changed.append(timed(lambda: load_index(workspace, settings)))
    warm_child = subprocess.run([sys.executable, "-c", CHILD, str(workspace)], capture_output=True, text=True)
    warm_mem = json.loads(warm_child.stdout)

    def med(values: list[float]) -> float:
        return statistics.median(values)

    ctags_s, ctags_cpu = med([t for t, _, _ in theirs]), med([c for _, c, _ in theirs])
    cold_s, cold_cpu = med([r["seconds"] for r in ours]), med([r["cpu"] for r in ours])
    best_ratio = min(r["seconds"] for r in ours) / min(t for t, _, _ in theirs)
    cold_wall = med([r["wall"] for r in ours])
    peak_self = max(r["self_kb"] for r in ours) / 1024
    peak_worker = max(r["children_kb"] for r in ours) / 1024
    print(f"\nPart 1: Python stdlib Lib tree, {len(files)} files, {lines:,} lines, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f} at the end; median of {rounds} unless said")
    print(f"{'measure':46} {'value':>12}  {'target':>8}")
    rows = [
        ("ctags -L (same files, json), wall s", f"{ctags_s:.2f}", ""),
        ("ctags CPU s", f"{ctags_cpu:.2f}", ""),
        ("cold build, load_index in a fresh process, s", f"{cold_s:.2f}", ""),
        ("cold build incl. interpreter start, wall s", f"{cold_wall:.2f}", ""),
        ("cold build CPU s (process + parse workers)", f"{cold_cpu:.2f}", ""),
        ("cold / ctags, wall (medians)", f"{cold_s / ctags_s:.2f}x", "<= 3x"),
        ("cold / ctags, wall (best of each)", f"{best_ratio:.2f}x", "<= 3x"),
        ("cold / ctags, CPU", f"{cold_cpu / ctags_cpu:.2f}x", ""),
        ("warm build (nothing changed), wall s", f"{med([w for w, _ in warm]):.3f}", "<= 0.3"),
        ("warm build, CPU s", f"{med([c for _, c in warm]):.3f}", ""),
        ("one file changed, wall s", f"{med([w for w, _ in changed]):.3f}", "<= 0.5"),
        ("one file changed, CPU s", f"{med([c for _, c in changed]):.3f}", ""),
        ("peak RSS cold: build process, MB", f"{peak_self:.0f}", "<= 400"),
        ("peak RSS cold: largest parse worker, MB", f"{peak_worker:.0f}", "<= 400"),
        ("peak RSS warm build process, MB", f"{warm_mem['self_kb'] / 1024:.0f}", "<= 400"),
        ("ctags tags / our definitions", f"{theirs[0][2]} / {sum_definitions(workspace)}", ""),
    ]
    for name, value, target in rows:
        print(f"{name:46} {value:>12}  {target:>8}")
    print("all times: time.perf_counter; memory: resource.getrusage ru_maxrss (peak resident set)")


def sum_definitions(workspace: Path) -> int:
    return sum(len(f.definitions) for f in load_index(workspace, Settings()).files.values())


# ---------------------------------------------------------------- part 2: recall and precision vs ctags


def build_mixed(dest: Path) -> dict[str, str]:
    """Copy the sources into dest/<language>/...; returns folder -> language for what was found."""
    found = {}
    for language, roots in MIXED_SOURCES.items():
        for root in roots:
            if root.is_dir():
                shutil.copytree(root, dest / language / root.name, symlinks=False, dirs_exist_ok=True,
                                ignore=shutil.ignore_patterns("__pycache__", "node_modules", "testdata"))
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
    args = parser.parse_args()
    if shutil.which("ctags") is None:
        raise SystemExit("ctags (Universal Ctags) is not installed")
    with tempfile.TemporaryDirectory(prefix="repomap-bench-") as tmp:
        if not args.skip_speed:
            speed(args.rounds, Path(tmp))
        recall(Path(tmp), args.examples)


if __name__ == "__main__":
    main()
