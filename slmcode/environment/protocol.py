"""The Environment protocol: where one workspace's files live and its programs run, behind nine calls.

Small on purpose, so a second implementation (a container, a remote runner such as SWE-ReX, a Kubernetes job)
is a day's work: paths are workspace-relative strings with forward slashes (never host paths), contents are
bytes, a command is an argv (the shell whitelist and permission modes are policy above this seam), and git is
one call taking git's own arguments. What the harness does with a result never depends on where it ran.

How each call maps onto a container (`docker exec` / `podman exec`, one long-lived container per run with the
workspace at the same path, the command user unprivileged, no network unless allowed):
- read / write: `docker exec C cat PATH` / `docker exec -i C sh -c 'cat > "$1"' - PATH` (or `docker cp`);
  the containment rules (no path out, nothing written into .git/.slmcode) are checked first, as here. A read
  of part of a file (a big file's shown lines, a chunk at a time): `docker exec C sh -c 'tail -c +$((OFF+1))
  "$1" | head -c SIZE' - PATH`.
- stat: `docker exec C sh -c 'realpath -m -- "$1" && stat -L -c "%F %s" -- "$1"' - PATH`: the real path must
  lie inside the workspace (else the refusal), a device, FIFO or socket is refused, a missing file is "missing".
- listdir: `docker exec C find PATH -mindepth 1 -maxdepth 1 -printf '%y %Y %f\0'` (%y: the entry's own type,
  so a link to a folder is not entered; %Y: its target's, so a link to a file is a file).
- walk / search: `docker exec C git ls-files -z ...` or a `find`; search reads each file through read.
- run: `docker exec -i -w WS C ARGV...` with `input` on stdin; a timeout kills it (`docker exec C kill`).
- git: `docker exec -w WS -e GIT_CONFIG_... C git ARGS` (the container is the wall, so no host jail).
- temp_path: a folder in the container outside the workspace (`/tmp/slmcode/NAME`).
- command(): one context per command line; its Launcher's
  - start(argv, stdin, stdout, stderr): `Popen(["docker", "exec", "-i", "-w", WS, C, *argv], ...)` with the
    same pipes; kill(proc): `docker exec C kill -9 -- -PID` of the process the exec started (a container
    has no host process group), or `docker exec --init`'s own pid;
  - which(program): `docker exec C sh -c 'command -v "$1"' - PROGRAM`;
  - stdin_from(path): the stdout of `docker exec C cat PATH`;
  - wrap(argv, env): `["docker", "exec", "-i", "-w", WS, *("-e", K) ..., C, *argv]` for an MCP stdio server;
  - undone / notes after the context: the same protected-path and set-id checks, run over the bind-mounted
    workspace (they read the workspace only) or as `docker exec C find ...`.
"""

from __future__ import annotations

import subprocess
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import IO, Literal, Protocol, runtime_checkable

Stream = IO[bytes] | int | None  # what Popen takes for a standard stream: a file, PIPE/DEVNULL, or inherit


@dataclass(frozen=True)
class Completed:
    """A finished program: its exit code and what it printed (bytes: git's paths need not be UTF-8)."""

    returncode: int
    stdout: bytes
    stderr: bytes = b""

    @property
    def ok(self) -> bool:
        return self.returncode == 0


@dataclass(frozen=True)
class Entry:
    """What a workspace path names, once the containment rules have resolved it (stat)."""

    path: str  # workspace-relative, symlinks inside the workspace followed; "." for the workspace itself
    kind: Literal["file", "dir", "missing"]
    size: int = 0  # bytes, for a file


# A folder's entry (listdir): "dir" a folder (not a link to one), "file" a regular file (a link to one too),
# "other" the rest (a link to a folder, a dangling link, a FIFO, a socket, a device).
EntryKind = Literal["dir", "file", "other"]


class Launcher(Protocol):
    """One command line's programs, each started inside the same prepared wall (Environment.command). A
    pipeline's programs are started one by one and joined by their pipes; each leads its own process group, so
    kill() ends what it started. Only inside the `with` block; after it, `undone` and `notes` are filled."""

    # Why no wall holds here ("" when one does); then only `only` may start (read-only programs) and start()
    # refuses the rest with PermissionError.
    unavailable: str
    only: tuple[str, ...]
    undone: list[str]  # workspace-relative paths the command made that were removed (.git, .slmcode, git dirs)
    notes: list[str]  # one line each: set-id bits cleared, the scratch folder emptied

    def which(self, program: str) -> str | None:
        """The program's path as a started program would find it; None when it is not installed."""
        ...

    def stdin_from(self, path: str) -> IO[bytes]:
        """A workspace file opened for a program's stdin (`< path`); ValueError when it lies outside."""
        ...

    def start(self, argv: Sequence[str], *, stdin: Stream, stdout: Stream, stderr: Stream) -> subprocess.Popen[bytes]:
        """Start one program in the workspace inside the wall, in its own process group."""
        ...

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        """End a started program and everything it started."""
        ...

    def wrap(self, argv: Sequence[str], env: Mapping[str, str] | None = None) -> tuple[list[str], dict[str, str]]:
        """(argv, environment) that start `argv` inside the wall for a caller that starts it itself (an MCP
        stdio server, started by its client library), with `env` added to the wall's allowlisted variables."""
        ...


@runtime_checkable
class Environment(Protocol):
    """One workspace. Every call stays inside it: a path naming anything outside is refused (ValueError or the
    implementation's refusal), a program cannot write outside it or reach the network unless allowed."""

    name: str  # shown to the user: which environment ran what ("local (bubblewrap)", "podman: IMAGE")

    def read(self, path: str, offset: int = 0, size: int | None = None) -> bytes:
        """The file's bytes (`size` of them from `offset`, or to its end); FileNotFoundError when there is
        none, IsADirectoryError for a folder."""
        ...

    def stat(self, path: str) -> Entry:
        """Where `path` leads and what is there; ValueError (the refusal, one line) when it leads outside the
        workspace or names a device, FIFO or socket."""
        ...

    def listdir(self, path: str) -> list[tuple[str, EntryKind]]:
        """A folder's entries (name, kind), sorted by name; OSError when it cannot be listed."""
        ...

    def write(self, path: str, data: bytes) -> None:
        """Create or replace a file (its folders made); never inside a `.git` or `.slmcode`."""
        ...

    def walk(self, prune: frozenset[str] = frozenset()) -> list[str]:
        """Every file worth a look, sorted: what git tracks plus untracked files it does not ignore, else every
        file no .gitignore on its way down excludes; folders named in `prune` (and .git, .slmcode) skipped."""
        ...

    def search(self, pattern: str, paths: Sequence[str] | None = None) -> list[tuple[str, int, str]]:
        """(path, line number, line) of each line matching a regular expression (RE2), over `paths` or walk()."""
        ...

    def run(self, argv: Sequence[str], *, timeout: float, input: bytes | None = None) -> Completed:
        """Run one program inside the wall with the workspace as its folder (TimeoutError past `timeout`)."""
        ...

    def git(
        self,
        *args: str,
        write: bool | None = None,
        input: bytes | None = None,
        env: Mapping[str, str] | None = None,
        timeout: float | None = None,
    ) -> Completed:
        """The harness's own git in this workspace, with nothing of the repository's config that runs code
        reaching the host. `write`: whether it changes the repository (None: decided from the subcommand)."""
        ...

    def command(self) -> AbstractContextManager[Launcher]:
        """One command line's wall, prepared once: its Launcher starts each program of the line; when the block
        ends, what the command left that would run code later is undone (Launcher.undone, Launcher.notes)."""
        ...

    def temp_path(self, name: str) -> str:
        """A path outside the workspace that this environment's programs (git's temporary index, a throwaway
        worktree) may write, as the programs see it."""
        ...
