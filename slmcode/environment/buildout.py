"""What a build, a test run or a package manager leaves in a workspace that does not ignore it: nobody's change.

`cargo test` in a crate with no .gitignore leaves target/ (hundreds of binary objects) and Cargo.lock; a Python
build leaves __pycache__. Counted as the task's changes they would be shown to the model as its work, put in the
reviewer's evidence and staged in the task's commit. Only files git does not track are taken for litter: a file
the repository tracks is the repository's, whoever rewrote it.
"""

from __future__ import annotations

from pathlib import PurePosixPath

# Folders only a build or a test runner writes (cargo, npm, Python's bytecode and test caches), never sources:
# what a command changes there is no change of the task even where git tracks it.
TOOL_FOLDERS = frozenset({"target", "node_modules", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"})
# Folders builds, test runners and package managers write into (their whole contents are output, when untracked:
# a repository may keep sources under build/ or dist/).
OUTPUT_FOLDERS = TOOL_FOLDERS | frozenset(
    {".tox", ".nox", ".venv", ".gradle", ".next", ".nyc_output", "coverage", "htmlcov", ".eggs", "dist", "build", "obj"}
)
# Compiled objects and caches, wherever they land.
OUTPUT_SUFFIXES = (".pyc", ".pyo", ".o", ".obj", ".a", ".so", ".dylib", ".dll", ".exe", ".class", ".rlib", ".rmeta")
OUTPUT_SUFFIX_PARTS = (".egg-info",)
# Lock files a build writes when the repository has none: untracked, the project chose not to keep one.
LOCK_FILES = frozenset(
    {"Cargo.lock", "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "poetry.lock", "uv.lock", "go.sum"}
)
MARKER_FILES = frozenset({".coverage"})


def is_build_output(path: str) -> bool:
    """Whether an untracked file at `path` (workspace-relative, `/`-separated) is what a build or a test run
    leaves rather than something written on purpose."""
    parts = PurePosixPath(path).parts
    if not parts:
        return False
    name = parts[-1]
    if name in LOCK_FILES or name in MARKER_FILES or name.endswith(OUTPUT_SUFFIXES):
        return True
    return any(part in OUTPUT_FOLDERS or part.endswith(OUTPUT_SUFFIX_PARTS) for part in parts[:-1])
