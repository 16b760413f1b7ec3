"""A real unprivileged kernel uid for commands when slmcode runs as root (docs/architecture.md#the-wall).

bwrap's user namespace shows a command uid 65534, but the kernel still sees root's uid 0, which is enough for
whatever checks the uid instead of a capability. When slmcode runs as root, idmap_launch.py goes in front of
bwrap: it clones the folders the jail binds (the workspace, the scratch folder, the toolchains) as idmapped
mounts in a private mount namespace and becomes uid 65534, and bwrap binds the clones. This module rewrites
a jail's bwrap arguments to name the clones and proves once that the whole chain works here.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from functools import cache
from pathlib import Path

LAUNCHER = str(Path(__file__).with_name("idmap_launch.py"))
BINDS = ("--bind", "--ro-bind", "--bind-try", "--ro-bind-try")
# Sources read as they are: world-readable system folders, devices and /proc (never idmapped).
AS_IS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/etc", "/dev", "/proc", "/sys")
# Where the clones go: a fresh tmpfs over the first of these that exists, in the launcher's own mount namespace.
STAGES = ("/dev/shm", "/mnt", "/media", "/srv")


def _under(path: str, roots: Sequence[str]) -> str | None:
    return next((root for root in roots if path == root or path.startswith(root.rstrip("/") + "/")), None)


def stage() -> str | None:
    return next((p for p in STAGES if os.path.isdir(p) and not os.path.islink(p)), None)


def staged(prefix: Sequence[str], where: str) -> tuple[list[str], list[str]]:
    """The folders to clone (none inside another) and the bwrap arguments with each bound source under one of
    them renamed to its clone's place under `where`."""
    sources = [prefix[i + 1] for i, arg in enumerate(prefix[:-1]) if arg in BINDS and not _under(prefix[i + 1], AS_IS)]
    roots: list[str] = []
    for source in sorted(set(sources), key=len):
        if _under(source, roots) is None:
            roots.append(source)
    rewritten = list(prefix)
    for i, arg in enumerate(prefix[:-1]):
        root = _under(prefix[i + 1], roots) if arg in BINDS else None
        if root is not None:
            rewritten[i + 1] = os.path.join(where, str(roots.index(root))) + prefix[i + 1][len(root) :]
    return roots, rewritten


def front(prefix: Sequence[str], uid: int, gid: int) -> list[str]:
    """The jail's prefix, behind the launcher when a real kernel uid is available here; else as it was."""
    where = stage()
    if not prefix or where is None or not available(uid, gid):
        return list(prefix)
    roots, rewritten = staged(prefix, where)
    return [sys.executable, "-I", LAUNCHER, str(uid), str(gid), where, *roots, "--", *rewritten]


@cache
def available(uid: int, gid: int) -> bool:
    """Whether a command here runs with kernel uid `uid` and still writes the workspace, proved once: the
    launcher and an unprivileged bwrap over a folder root owns, as a real jail uses them."""
    from slmcode.environment.bwrap import bwrap_binary, userns_args, userns_works

    where = stage()
    if os.geteuid() != 0 or uid == 0 or where is None or not sys.platform.startswith("linux") or not userns_works():
        return False
    with tempfile.TemporaryDirectory(prefix="slmcode-uid-") as folder, tempfile.TemporaryDirectory() as secret:
        os.chmod(secret, 0o755)
        key = Path(secret, "key")
        key.write_text("root's\n", encoding="utf-8")
        key.chmod(0o600)
        system = [
            a for path in ("/usr", "/bin", "/lib", "/lib64") if os.path.isdir(path) for a in ("--ro-bind", path, path)
        ]
        probe = [
            bwrap_binary(),
            *userns_args(uid, gid),
            *system,
            "--bind",
            folder,
            folder,
            "/bin/sh",
            "-c",
            f'cat /secret/key > "{folder}/out" 2>/dev/null || echo denied > "{folder}/out"',
        ]
        launch = front_unchecked(probe, uid, gid, where)
        at = launch.index(probe[0]) + 1
        launch[at:at] = ["--ro-bind", secret, "/secret"]  # not staged: seen as the kernel sees root's file
        try:
            done = subprocess.run(launch, capture_output=True, timeout=20)
            out = Path(folder, "out")
            owner, said = out.stat().st_uid, out.read_text(encoding="utf-8").strip()
        except (OSError, subprocess.TimeoutExpired):
            return False
    # A file only root may read is refused (kernel uid 0 reads it, whatever the namespace shows), and what the
    # command wrote through its idmapped clone lands as root's, the owner of the user's own files.
    return done.returncode == 0 and said == "denied" and owner == 0


def front_unchecked(prefix: Sequence[str], uid: int, gid: int, where: str) -> list[str]:
    roots, rewritten = staged(prefix, where)
    return [sys.executable, "-I", LAUNCHER, str(uid), str(gid), where, *roots, "--", *rewritten]
