"""How the harness itself runs git: a fixed argv that switches off what would run a program the repository's
configuration names, and an environment that cannot point git at another repository.

A workspace's .git/config is not the harness's to trust: `core.fsmonitor` runs its command on any call that
reads the index (`git ls-files` too), `diff.external` on `git diff`, a pager on any output, hooks on a commit.
Those are switched off here; diffs also get `--no-ext-diff --no-textconv` (gitwall adds them: a textconv
driver has a name of the repository's choosing, so no -c can name it). `safe.bareRepository=explicit`: a
folder laid out as a bare repository (HEAD, objects/, refs/, a config naming an fsmonitor) under any name is
never taken for the repository. Clean/smudge filters are gitwall's concern: every harness git call runs inside
the wall through it, or on the host with each filter emptied when no sandbox can run.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from slmcode.environment.buildout import is_build_output
from slmcode.store.paths import STATE_DIR

SAFE_CONFIG = (
    "core.hooksPath=/dev/null",
    "core.fsmonitor=false",
    "commit.gpgsign=false",
    "tag.gpgsign=false",
    "core.pager=cat",
    "diff.external=",
    "gc.auto=0",
    "maintenance.auto=false",
    "advice.detachedHead=false",
    "core.quotePath=false",
    "safe.bareRepository=explicit",
    # gpg.program runs on a signed commit when either is on; a submodule's own config (filters) on recursion.
    "log.showSignature=false",
    "merge.verifySignatures=false",
    "submodule.recurse=false",
)
# Variables that would point git at another repository, index or config than the workspace's.
DROPPED_ENV = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_CONFIG",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_EXTERNAL_DIFF",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "GIT_SSH_COMMAND",
)
QUIET = {"GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C", "GIT_OPTIONAL_LOCKS": "0"}
# Where the harness's own state lives: never staged, never counted as the user's uncommitted work.
OUTSIDE = f":(exclude){STATE_DIR}"
# The uncommitted files below the current folder (staged, unstaged or untracked), read by `uncommitted_paths`.
STATUS = ("status", "--porcelain=v1", "-z", "--untracked-files=all", "--", ".", OUTSIDE)


def git_argv(*args: str) -> list[str]:
    argv = ["git"]
    for item in SAFE_CONFIG:
        argv += ["-c", item]
    return [*argv, *args]


def git_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in DROPPED_ENV}
    env.update(QUIET)
    env.update(extra or {})
    return env


def uncommitted_paths(status: str, *, work_only: bool = False) -> list[str]:
    """The paths of STATUS's output (relative to the repository's top), a rename as its new name. `work_only`:
    without the untracked files a build or a test run leaves (environment/buildout), which are nobody's change."""
    paths: list[str] = []
    skip = False
    for entry in status.split("\0"):
        if skip or not entry:
            skip = False
            continue
        if not (work_only and entry.startswith("??") and is_build_output(entry[3:])):
            paths.append(entry[3:])
        skip = entry[0] in "RC"  # a rename carries its old name as the next entry
    return paths
