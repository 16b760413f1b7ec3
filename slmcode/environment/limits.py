"""Resource limits inside the sandbox: processes, memory, file size and CPU time per command, so a runaway or
hostile test (a fork bomb, a memory hog, a file that fills the disk, a busy loop) stops by itself.

The rlimits are set by util-linux's `prlimit` run as the first program inside bwrap (after the namespaces exist),
never by a preexec_fn: forking a process that runs threads can deadlock (docs/architecture.md#traps). Inside
bwrap's own user namespace RLIMIT_NPROC counts only the sandbox's processes. It does not bind when the command's
kernel uid is 0 (the kernel exempts root's processes whatever their capabilities), so as root the process limit is
a pids cgroup the command line is put in (by ossandbox's one-line `sh` in front of bwrap); where no pids cgroup can
be made, as root, the process limit does not hold and `status()` says so.

Memory is RLIMIT_DATA (private writable memory), not RLIMIT_AS: V8, Go and the JVM reserve far more address
space than they use, and an address-space limit breaks them. Every limit is per process: a command line's
processes together may use more.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import shutil
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MB = 1024 * 1024
# Tried in order: cgroup v1's pids hierarchy, then the unified (v2) one when its root delegates pids.
PIDS_ROOTS = (Path("/sys/fs/cgroup/pids"), Path("/sys/fs/cgroup"))
_COUNTER = itertools.count()
# Where prlimit is missing (a minimal image): the same limits from the interpreter, then exec the command.
PY_RLIMITS = (
    "import os, resource as r, sys\n"
    "n, d, f, c = (int(v) for v in sys.argv[1:5])\n"
    "for k, v in ((r.RLIMIT_NPROC, n), (r.RLIMIT_DATA, d), (r.RLIMIT_FSIZE, f), (r.RLIMIT_CPU, c),"
    " (r.RLIMIT_CORE, 0)):\n"
    "    r.setrlimit(k, (v, v))\n"
    "os.execvp(sys.argv[5], sys.argv[5:])\n"
)


@dataclass(frozen=True)
class SandboxLimits:
    """What one sandboxed program may use (the sandbox_max_* settings; these defaults when none are given)."""

    max_processes: int = 1024  # tasks (threads count) in one command line
    max_memory_mb: int = 4096  # private writable memory per process
    max_file_mb: int = 2048  # largest file a process may write
    max_cpu_seconds: int = 1800  # CPU time per process: a safety net, not a timeout (shell_timeout_seconds is)
    max_scratch_mb: int = 2048  # the scratch folder (HOME/TMPDIR) after a command, and /tmp's tmpfs

    @classmethod
    def of(cls, settings: Any) -> SandboxLimits:
        """The limits a Settings (or its tools slice) names; a field it lacks keeps its default."""
        defaults = cls()
        return cls(
            **{name: getattr(settings, "sandbox_" + name, getattr(defaults, name)) for name in cls.__dataclass_fields__}
        )


def rlimit_argv(limits: SandboxLimits) -> list[str]:
    """The program that sets the limits and then becomes the command (it follows these arguments)."""
    values = (limits.max_processes, limits.max_memory_mb * MB, limits.max_file_mb * MB, limits.max_cpu_seconds)
    prlimit = shutil.which("prlimit", path="/usr/bin:/bin:/usr/sbin:/sbin")
    if prlimit:
        n, d, f, c = values
        return [prlimit, f"--nproc={n}", f"--data={d}", f"--fsize={f}", f"--cpu={c}", "--core=0", "--"]
    return [sys.executable, "-S", "-I", "-c", PY_RLIMITS, *(str(v) for v in values)]


def sweep_cgroups(root: Path) -> None:
    """Remove the empty cgroups of slmcode processes that have exited (killed before they removed theirs)."""
    for folder in root.glob("slmcode-*-*"):
        pid = folder.name.split("-")[1]
        if pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
            with contextlib.suppress(OSError):
                folder.rmdir()


_SWEPT: set[Path] = set()
_PENDING: set[Path] = set()  # cgroups still busy when their command line ended
# Command lines end on many threads at once (parallel attempts, the web server): one pass at a time.
_PENDING_LOCK = threading.Lock()


class PidsCgroup:
    """A pids cgroup for one command line, made only when the command would run with kernel uid 0 (where
    RLIMIT_NPROC does not bind); `path` is None where none can be made."""

    def __init__(self, max_processes: int) -> None:
        self.path: Path | None = None
        if os.geteuid() != 0:
            return
        remove_pending()
        for root in PIDS_ROOTS:
            if root not in _SWEPT and root.is_dir():
                _SWEPT.add(root)
                sweep_cgroups(root)
            folder = root / f"slmcode-{os.getpid()}-{next(_COUNTER)}"
            try:
                folder.mkdir()
            except OSError:
                continue
            try:
                (folder / "pids.max").write_text(str(max_processes))
            except OSError:  # v2 without the pids controller delegated: no pids.max here
                with contextlib.suppress(OSError):
                    folder.rmdir()
                continue
            self.path = folder
            return

    def remove(self) -> None:
        """Remove the cgroup once its processes are gone. bwrap's last process leaves it a few ms after the
        command's end; rather than wait for it, a busy cgroup is removed at the next command line's start (or
        when slmcode exits)."""
        if self.path is not None:
            with _PENDING_LOCK:
                _PENDING.add(self.path)
            remove_pending()


def remove_pending(wait: float = 0.0) -> list[Path]:
    """Remove the cgroups whose processes have gone, trying for up to `wait` seconds; returns those left."""
    deadline = time.monotonic() + wait
    while True:
        with _PENDING_LOCK:
            for busy in sorted(_PENDING):
                try:
                    busy.rmdir()
                except FileNotFoundError:
                    pass
                except OSError:
                    continue
                _PENDING.discard(busy)
            left = sorted(_PENDING)
        if not left or time.monotonic() >= deadline:
            return left
        time.sleep(0.01)


atexit.register(remove_pending, 1.0)


def process_limit_holds() -> bool:
    """Whether the process limit binds here: always for another uid, as root only with a pids cgroup."""
    if os.geteuid() != 0:
        return True
    probe = PidsCgroup(1)
    held = probe.path is not None
    probe.remove()
    return held
