"""The harness's own git, inside the wall: every git call slmcode makes runs in the same bubblewrap jail as the
agent's commands, so whatever a repository's configuration names (a clean/smudge filter, an fsmonitor, a
textconv driver) can act only inside the wall: no network, no host file outside the repository and a scratch
folder, and for calls that only read, not even the repository.

- Read-only calls (status, ls-files, diff, rev-parse, log, ...): the repository's top bound read-only, .git too.
- Calls that must write (add, commit, checkout, stash, branch, revert, ...): the working tree and its .git (a
  linked worktree's git folders too) writable; every `.slmcode` and every nested `.git` stay read-only. A
  filter may still change the working tree or .git; it cannot reach the host, which is what the wall is for.
- Filters stay on inside the wall (git-lfs needs them): the user's own global `filter.*` settings are passed
  in, since the jail's HOME is the scratch folder and would hide them. The jail's resource limits hold too.
- Where no sandbox can run (SandboxUnavailable; also when the repository's top is the home folder or a system
  folder, which no jail binds), git runs on the host with every configured filter switched off:
  `git config --get-regexp` names each driver any config scope defines (an attribute naming a driver no config
  defines runs nothing), and `-c filter.NAME.process= -c filter.NAME.clean= -c filter.NAME.smudge=` empties
  each one (git runs no filter whose command is empty); merge drivers become `false`; `status` ignores
  submodules. git-lfs files are then seen as stored.
- Always: gitsafe's fixed switches (hooks, fsmonitor, pager, external diff off, safe.bareRepository=explicit so
  a bare-repository layout under another name is never picked up) and `--no-ext-diff --no-textconv` on diffs.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path

from slmcode.environment import ossandbox
from slmcode.environment.aftercheck import strip_setid
from slmcode.environment.bwrap import SandboxPolicy, bwrap_prefix, linked_git_dirs
from slmcode.environment.gitsafe import QUIET, git_argv, git_env
from slmcode.environment.limits import SandboxLimits, rlimit_argv
from slmcode.environment.sandboxenv import sandbox_env

# Subcommands that only read: they run with the repository bound read-only.
READ_ONLY = frozenset(
    {
        "rev-parse",
        "symbolic-ref",
        "status",
        "diff",
        "log",
        "ls-files",
        "merge-base",
        "show",
        "cat-file",
        "for-each-ref",
        "config",
        "ls-tree",
        "describe",
        "rev-list",
    }
)
# Subcommands whose output can run a diff driver: a driver has a name of the repository's choosing.
DIFFING = frozenset({"diff", "log", "show"})
# Inside the wall: the jail's uid may differ from the files' owner, and git would refuse the repository as
# "dubious"; the check guards against a config running code, which inside the wall can do no harm.
IN_WALL = ("-c", "safe.directory=*")


def repository_top(workspace: Path) -> Path | None:
    """The folder whose `.git` git would find from `workspace` (git's own walk up); None outside any."""
    for folder in (workspace, *workspace.parents):
        if os.path.lexists(folder / ".git"):
            return folder
    return None


def subcommand(args: Sequence[str]) -> str:
    return next((a for a in args if not a.startswith("-")), "")


def writes(args: Sequence[str]) -> bool:
    """Whether a git call must write: its subcommand is not a reader (`stash list` reads)."""
    name = subcommand(args)
    if name == "stash":
        return "list" not in args
    return name not in READ_ONLY


def _with_diff_guard(args: Sequence[str]) -> list[str]:
    name = subcommand(args)
    if name not in DIFFING:
        return list(args)
    at = list(args).index(name) + 1
    return [*args[:at], "--no-ext-diff", "--no-textconv", *args[at:]]


@lru_cache(maxsize=1)
def user_filters() -> tuple[str, ...]:
    """`-c` pairs for the user's global `filter.*` settings (git-lfs's), read once per process from the user's
    global config only: no repository's configuration takes part (run outside any)."""
    try:
        done = subprocess.run(
            ["git", "config", "--global", "--null", "--get-regexp", r"^filter\."],
            cwd="/",
            env=git_env(),
            capture_output=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return ()
    pairs: list[str] = []
    for entry in done.stdout.decode("utf-8", "surrogateescape").split("\0"):
        key, _, value = entry.partition("\n")
        if key:
            pairs += ["-c", f"{key}={value}"]
    return tuple(pairs)


def filters_off(workspace: Path, timeout: float) -> list[str]:
    """`-c` pairs that switch off every filter and merge driver any config scope of this repository defines
    (host path only): filters emptied (git runs no empty filter), merge drivers made `false` (a conflict, as an
    empty one would pass for a clean merge)."""
    try:
        done = subprocess.run(
            git_argv("config", "--null", "--get-regexp", r"^(filter\..*\.(clean|smudge|process)|merge\..*\.driver)$"),
            cwd=workspace,
            env=git_env(),
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return []
    found = set()
    for entry in done.stdout.decode("utf-8", "surrogateescape").split("\0"):
        key = entry.partition("\n")[0]
        section, _, rest = key.partition(".")
        if section in ("filter", "merge") and "." in rest:
            found.add((section, rest[: rest.rindex(".")]))
    pairs: list[str] = []
    for section, name in sorted(found):
        parts = ("process=", "clean=", "smudge=", "required=false") if section == "filter" else ("driver=false",)
        for part in parts:
            pairs += ["-c", f"{section}.{name}.{part}"]
    return pairs


def _on_host(workspace: Path, args: list[str], timeout: float) -> list[str]:
    """The host path's argv: filters and merge drivers off, and `status` not looking into submodules (a
    submodule's own config could name a filter this repository's config does not)."""
    if subcommand(args) == "status":
        at = args.index("status") + 1
        args = [*args[:at], "--ignore-submodules=all", *args[at:]]
    return git_argv(*filters_off(workspace, timeout), *args)


def _jailed(
    workspace: Path, top: Path, args: list[str], write: bool, extra_env: Mapping[str, str]
) -> tuple[list[str], dict[str, str]]:
    """(argv, env) of one git call inside the jail; SandboxUnavailable when none can run here.

    A read-only call's jail is built from the jail's parts: the whole repository is read-only, so it needs no
    index of the `.git` and `.slmcode` entries (that walk costs more than the call). A writing call takes the
    command's jail (every `.git`, `.slmcode` and bare repository read-only) and binds this repository's own
    `.git` writable over it (and a linked worktree's git folders): a later bind over the same place wins."""
    limits = SandboxLimits()
    # The jail's user namespace shows a command the ids of nobody; git compares the files' owner with the one its
    # index recorded and would hash every tracked file again on each call (4x the cost, and a clean filter run per
    # file). The kernel uid is the invoking user's either way: git sees its own here. It starts in the workspace,
    # which may lie below the repository's top the jail is built around.
    ids = (os.getuid(), os.getgid())
    if write:
        jail = ossandbox.prepare(top, writable=True, network=False, limits=limits, ids=ids, start=workspace)
        prefix = list(jail.prefix)
        for path in [str(top / ".git"), *linked_git_dirs(top)]:
            if os.path.isdir(path) and not os.path.islink(path):
                prefix += ["--bind", path, path]
        scratch = ossandbox.scratch_dir(top)
    else:
        ossandbox.check_workspace(top)
        scratch = ossandbox.scratch_dir(top)
        policy = SandboxPolicy(top, False, False, (), (), (), limits, ids, workspace)
        prefix = bwrap_prefix(policy, scratch, os.environ)
    env = {**sandbox_env(os.environ, scratch, top), **QUIET, **extra_env}
    return [*prefix, *rlimit_argv(limits), *git_argv(*IN_WALL, *user_filters(), *args)], env


def run_git(
    workspace: Path,
    args: Sequence[str],
    *,
    write: bool | None = None,
    input: bytes | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """Run one git call for the harness in `workspace`, inside the wall when the sandbox runs here.
    `write`: None decides from the subcommand. Raises OSError / TimeoutExpired as subprocess.run does."""
    workspace = Path(workspace)
    args = _with_diff_guard(args)
    write = writes(args) if write is None else write
    extra = dict(env or {})
    top = repository_top(workspace) or workspace
    jailed = True
    try:
        argv, child_env = _jailed(workspace, top, args, write, extra)
    except ossandbox.SandboxUnavailable:
        argv, child_env, jailed = _on_host(workspace, args, timeout or 60), git_env(extra), False
    started = time.time_ns()
    try:
        return subprocess.run(
            argv, cwd=workspace, input=input, env=child_env, capture_output=True, timeout=timeout, check=False
        )
    finally:
        if jailed and write:
            # A filter may chmod a file it can write: owned by the invoking user outside (root as root), a set-uid
            # bit would leave a set-uid program in the workspace, as after a command (aftercheck.py).
            strip_setid(top, started)


def read_git(workspace: Path, *args: str, timeout: float = 60) -> bytes | None:
    """The output of a read-only git call in `workspace`; None when git is missing, fails or hangs."""
    try:
        done = run_git(workspace, args, write=False, timeout=timeout)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None
