"""What a sandboxed command gets from the host: an environment built from an allowlist, and a private scratch
folder per workspace that is its HOME and TMPDIR (so no credential in the user's variables or home reaches it).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path

from slmcode.errors import WorkspaceError
from slmcode.redact import looks_secret
from slmcode.treewalk import remove_tree

# Variables a build reads; a value is passed only when its name is here (or in sandbox_env) and is no secret.
ENV_ALLOWED = (
    "PATH",
    "LANG",
    "LANGUAGE",
    "LC_ALL",
    "LC_CTYPE",
    "LC_MESSAGES",
    "TZ",
    "USER",
    "LOGNAME",
    "VIRTUAL_ENV",
    "CONDA_PREFIX",
    "PYTHONPATH",
    "PYTHONHASHSEED",
    "PYTHONUTF8",
    "GOROOT",
    "GOPATH",
    "GOFLAGS",
    "GOTOOLCHAIN",
    "CARGO_HOME",
    "RUSTUP_HOME",
    "RUSTUP_TOOLCHAIN",
    "JAVA_HOME",
    "MAVEN_HOME",
    "GRADLE_HOME",
    "NODE_PATH",
    "PYENV_ROOT",
    "PYENV_VERSION",
    # pytest's own switch: a user (or CI) who turned off plugin autoload for speed keeps it in the
    # criteria's `python -m pytest` (a venv's langsmith/hypothesis plugins cost ~3 CPU-s per start)
    "PYTEST_DISABLE_PLUGIN_AUTOLOAD",
)
QUIET_ENV = {
    "GIT_PAGER": "cat",
    "PAGER": "cat",
    "GIT_TERMINAL_PROMPT": "0",
    "NO_COLOR": "1",
    "TERM": "dumb",
    "PYTHONDONTWRITEBYTECODE": "1",
    "GOPROXY": "off",
    "CARGO_NET_OFFLINE": "true",
}


OWNER_FILE = "workspace"  # the workspace a scratch folder serves, so a sweep can tell when it is gone


def scratch_root() -> Path:
    """slmcode's own parent of the scratch folders: $XDG_CACHE_HOME/slmcode/scratch (~/.cache by default).

    Not the shared temp folder: another local user could plant a link or a folder at a predictable name there
    and choose which folder root's slmcode chmods and binds writable into the jail. Here every folder on the
    way is ours, made 0700 and checked with lstat."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    root = Path(cache) / "slmcode" / "scratch"
    root.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    _private(root.parent, others_may=0o055)  # slmcode's cache folder: others may look, never write
    _private(root)
    return root


def _private(folder: Path, others_may: int = 0) -> None:
    """Make `folder` (0700) unless it exists; then it must be a real folder of ours (not a link) that group and
    others cannot open beyond the bits `others_may` allows."""
    with contextlib.suppress(FileExistsError):
        os.mkdir(folder, 0o700)
    found = os.lstat(folder)
    if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.geteuid() or found.st_mode & 0o077 & ~others_may:
        raise UnsafeScratch(
            f"{folder}: not a private folder of this user (a link, another owner's, or open to others); "
            "slmcode will not use it for a sandbox's scratch: remove it and run again"
        )


class UnsafeScratch(WorkspaceError):
    """The scratch folder is not ours alone: nothing runs until the user removes what is there."""


def scratch_dir(workspace: Path) -> Path:
    """A private HOME/TMPDIR per workspace, outside it, kept between commands of a run (caches stay warm)."""
    digest = hashlib.sha256(str(workspace).encode("utf-8", "surrogateescape")).hexdigest()[:16]
    root = scratch_root()
    path = root / digest
    if not os.path.lexists(path):
        sweep_scratch(root)  # only when a folder is made: commands in a known workspace pay nothing
    _private(path)
    _private(path / "home")
    owner = path / OWNER_FILE
    if not owner.exists():
        owner.write_text(str(workspace), encoding="utf-8", errors="surrogateescape")
    return path


def sweep_scratch(temp: Path) -> int:
    """Remove the scratch folders of workspaces that no longer exist (a test's or a worktree's temporary folder):
    one per workspace would otherwise pile up in the temp folder for ever. Folders without an owner record
    (made before it existed, or being made) are left alone. Returns how many went."""
    gone = 0
    for folder in temp.iterdir():
        try:
            owner = (folder / OWNER_FILE).read_text(encoding="utf-8", errors="surrogateescape")
        except OSError:
            continue
        if owner and not os.path.isdir(owner):
            remove_tree(folder)
            gone += 1
    return gone


def real_home() -> str:
    """The user's real home folder: never bound into the sandbox, never a workspace."""
    return os.path.realpath(os.path.expanduser("~"))


def sandbox_env(
    environ: Mapping[str, str], scratch: Path, workspace: Path, extra: Iterable[str] = ()
) -> dict[str, str]:
    """The child's environment from an allowlist: no credential reaches a command, whatever its name."""

    names = set(ENV_ALLOWED) | set(extra)
    env = {k: v for k, v in environ.items() if k in names and not looks_secret(k, v)}
    home = real_home()
    rustup = os.path.join(home, ".rustup")
    if "RUSTUP_HOME" not in env and os.path.isdir(rustup):
        env["RUSTUP_HOME"] = rustup  # HOME moves to scratch, but rustup's toolchains stay where they are
    env.update(QUIET_ENV)
    # Without a ceiling, git in a workspace that is not a repository finds the repository of a parent folder.
    env.update(HOME=str(scratch / "home"), TMPDIR=str(scratch), GIT_CEILING_DIRECTORIES=str(workspace.parent))
    return env
