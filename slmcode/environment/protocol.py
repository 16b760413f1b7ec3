"""The Environment protocol: where one workspace's files live and its programs run, behind six calls.

Small on purpose, so a second implementation (a container, a remote runner such as SWE-ReX, a Kubernetes job)
is a day's work: paths are workspace-relative strings with forward slashes (never host paths), contents are
bytes, a command is an argv (the shell whitelist and permission modes are policy above this seam), and git is
one call taking git's own arguments. What the harness does with a result never depends on where it ran.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable


@dataclass(frozen=True)
class Completed:
    """A finished program: its exit code and what it printed (bytes: git's paths need not be UTF-8)."""

    returncode: int
    stdout: bytes
    stderr: bytes = b""

    @property
    def ok(self) -> bool:
        return self.returncode == 0


@runtime_checkable
class Environment(Protocol):
    """One workspace. Every call stays inside it: a path naming anything outside is refused (ValueError or the
    implementation's refusal), a program cannot write outside it or reach the network unless allowed."""

    name: str  # shown to the user: which environment ran what ("local (bubblewrap)", "podman: IMAGE")

    def read(self, path: str) -> bytes:
        """The file's bytes; FileNotFoundError when there is none, IsADirectoryError for a folder."""
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

    def git(self, *args: str, write: bool | None = None, input: bytes | None = None,
            env: Mapping[str, str] | None = None, timeout: float | None = None) -> Completed:
        """The harness's own git in this workspace, with nothing of the repository's config that runs code
        reaching the host. `write`: whether it changes the repository (None: decided from the subcommand)."""
        ...

    def temp_path(self, name: str) -> str:
        """A path outside the workspace that this environment's programs (git's temporary index, a throwaway
        worktree) may write, as the programs see it."""
        ...
