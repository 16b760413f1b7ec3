"""Files that are copies of other files or made from them: generated or vendored by the repository's own word
(`.gitattributes` linguist-generated / linguist-vendored), byte-identical to another file, or a build's twin of a
source file (a `deno/lib` or `esm/` copy of `src/` with the same name and the same definitions).

A fix lands in the source, not in its copy, and a pack that shows both pays twice for one file: localisation
keeps one file of each group (a source file over a copy, then the shorter path, then the first by name) and
leaves the rest out, unless the task names them as focus files.
"""

from __future__ import annotations

import fnmatch
import hashlib
from collections.abc import Sequence
from pathlib import Path

from slmcode.localize.sources import SourceFile

_LINGUIST_ATTRIBUTES = ("linguist-generated", "linguist-vendored")
# Folder names a build or a package manager writes copies into; a file below one loses a tie to one that is not.
BUILD_FOLDERS = frozenset(
    {
        "dist",
        "build",
        "out",
        "lib",
        "esm",
        "cjs",
        "es",
        "umd",
        "deno",
        "deno_dist",
        "generated",
        "__generated__",
        "gen",
        "target",
        "vendor",
        "third_party",
        "bundle",
    }
)
# A build's twin keeps the file's name and every definition; two files that merely share a name and one or two
# definitions (`cmd/a/main.go`, `cmd/b/main.go`) are not copies.
TWIN_MIN_DEFINITIONS = 3


def linguist_patterns(workspace: Path) -> list[str]:
    """The patterns `.gitattributes` (at the root) marks generated or vendored."""
    try:
        text = (workspace / ".gitattributes").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    patterns = []
    for line in text.splitlines():
        fields = line.split()
        if len(fields) < 2 or fields[0].startswith("#"):
            continue
        for attribute in fields[1:]:
            name, _, value = attribute.partition("=")
            if name in _LINGUIST_ATTRIBUTES and value.lower() not in ("false", "0"):
                patterns.append(fields[0])
    return patterns


def _marked(path: str, patterns: Sequence[str]) -> bool:
    for pattern in patterns:
        bare = pattern.strip("/")
        if "/" not in bare and fnmatch.fnmatch(path.rsplit("/", 1)[-1], bare):
            return True
        if fnmatch.fnmatch(path, bare) or fnmatch.fnmatch(path, f"{bare}/*") or path.startswith(f"{bare}/"):
            return True
    return False


def _preference(path: str) -> tuple[int, int, str]:
    """Lower is kept: a file outside build folders, then the shorter path, then by name."""
    in_build = any(part in BUILD_FOLDERS for part in path.split("/")[:-1])
    return (int(in_build), path.count("/"), path)


def derived_files(workspace: Path, sources: Sequence[SourceFile]) -> set[str]:
    """Paths of `sources` that copy another of them or that the repository marks generated or vendored."""
    patterns = linguist_patterns(workspace)
    dropped = {s.path for s in sources if patterns and _marked(s.path, patterns)}
    groups: dict[tuple[str, ...], list[str]] = {}
    for source in sources:
        if source.path in dropped or not source.lines:
            continue
        digest = hashlib.blake2b("\n".join(source.lines).encode("utf-8", "replace"), digest_size=16).hexdigest()
        groups.setdefault(("same bytes", digest), []).append(source.path)
        names = tuple(sorted({s.name for s in source.symbols}))
        if len(names) >= TWIN_MIN_DEFINITIONS:
            groups.setdefault(("twin", source.path.rsplit("/", 1)[-1], *names), []).append(source.path)
    for paths in groups.values():
        if len(paths) > 1:
            keep = min(paths, key=_preference)
            dropped.update(p for p in paths if p != keep)
    return dropped
