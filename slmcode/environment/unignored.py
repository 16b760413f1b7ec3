"""The files below a folder that no .gitignore on the way down excludes: what an Environment lists when the
workspace is no git repository (or git cannot answer). Pruned folders are never entered (node_modules)."""

from __future__ import annotations

import os
from pathlib import Path

import pathspec

from slmcode.environment.filenames import shown_name
from slmcode.treewalk import walk


def walk_paths(workspace: Path, prune: frozenset[str]) -> list[str]:
    """Every file below `workspace` that no .gitignore on its way down excludes, folders in `prune` skipped."""
    found: list[str] = []
    specs: list[tuple[str, pathspec.PathSpec]] = []  # (folder prefix, its .gitignore), shallowest first
    root = str(workspace)
    for folder, dirs, names in walk(root):
        rel = os.path.relpath(folder, root).replace(os.sep, "/")
        prefix = "" if rel == "." else rel + "/"
        specs = [(p, s) for p, s in specs if prefix.startswith(p)]
        if ".gitignore" in names:
            lines = (Path(folder) / ".gitignore").read_text(encoding="utf-8", errors="replace").splitlines()
            specs.append((prefix, pathspec.GitIgnoreSpec.from_lines(lines)))

        def ignored(rel_path: str, specs: list[tuple[str, pathspec.PathSpec]] = specs) -> bool:
            # shown_name: pathspec matches with RE2 when google-re2 is installed, and RE2 refuses surrogates.
            return any(spec.match_file(shown_name(rel_path[len(p) :])) for p, spec in specs)

        dirs[:] = sorted(d for d in dirs if d not in prune and not ignored(f"{prefix}{d}/"))
        found.extend(f"{prefix}{n}" for n in names if not ignored(f"{prefix}{n}"))
    return sorted(found)
