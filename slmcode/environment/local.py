"""LocalEnvironment: today's implementation. Files are the host's, reached only through the workspace's
containment rules (containment.py: no path out, no symlink out, nothing written into `.git`/`.slmcode`);
programs and the harness's own git run inside the bubblewrap jail (ossandbox.py, gitwall.py); a command line's
programs start through launch.py's Launcher, which is the read-only fallback where no jail can run.
"""

from __future__ import annotations

import os
import stat
import subprocess
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from slmcode.environment import ossandbox
from slmcode.environment.beneath import checked, read_beneath, write_beneath
from slmcode.environment.containment import Refusal, resolve_path, workspace_root
from slmcode.environment.gitwall import repository_top, run_git
from slmcode.environment.launch import LocalLauncher
from slmcode.environment.limits import SandboxLimits
from slmcode.environment.patterns import compile_pattern
from slmcode.environment.protocol import Completed, Entry, EntryKind
from slmcode.environment.unignored import walk_paths

PRUNED = frozenset({".git", ".slmcode"})


class LocalEnvironment:
    """One workspace on this machine. `writable`: programs may change the workspace (auto permission);
    `network`, `read_paths`, `env_names`, `limits`: the sandbox settings of the same names."""

    name = "local (bubblewrap)"

    def __init__(
        self,
        workspace: Path,
        *,
        writable: bool = True,
        network: bool = False,
        read_paths: Sequence[str] = (),
        env_names: Sequence[str] = (),
        limits: SandboxLimits | None = None,
    ) -> None:
        # Absolute once: the jail's binds and git's scratch folder are worked out from it, and a relative '.'
        # names nothing inside the wall (gitrun's /diff from `slmcode chat -w .` saw no repository).
        self.workspace = Path(os.path.abspath(workspace))
        self.writable, self.network = writable, network
        self.read_paths, self.env_names = tuple(read_paths), tuple(env_names)
        self.limits = limits or SandboxLimits()

    @classmethod
    def from_settings(cls, workspace: Path, settings: Any) -> LocalEnvironment:
        """The run's environment from its Settings (or the tools' slice): programs may write the workspace only
        in permission `auto`; the sandbox_* settings say the rest."""
        return cls(
            workspace,
            writable=settings.permission == "auto",
            network=settings.sandbox_network,
            read_paths=settings.sandbox_read_paths,
            env_names=settings.sandbox_env,
            limits=SandboxLimits.of(settings),
        )

    def _path(self, path: str, *, for_write: bool = False) -> Path:
        try:
            return resolve_path(self.workspace, path, for_write=for_write).real
        except Refusal as exc:
            raise ValueError(str(exc)) from exc

    def read(self, path: str, offset: int = 0, size: int | None = None) -> bytes:
        try:
            return read_beneath(*checked(self.workspace, path), offset, size)  # what was checked is what is opened
        except Refusal as exc:
            raise ValueError(str(exc)) from exc

    def stat(self, path: str) -> Entry:
        real = self._path(path)  # refuses a path out and a device, FIFO or socket
        rel = Path(os.path.relpath(real, workspace_root(self.workspace))).as_posix()
        try:
            mode = real.stat()
        except FileNotFoundError:
            return Entry(rel, "missing")
        if stat.S_ISDIR(mode.st_mode):
            return Entry(rel, "dir")
        return Entry(rel, "file", mode.st_size)

    def listdir(self, path: str) -> list[tuple[str, EntryKind]]:
        with os.scandir(self._path(path)) as found:
            return sorted((entry.name, _kind(entry)) for entry in found)

    def write(self, path: str, data: bytes) -> None:
        try:
            write_beneath(*checked(self.workspace, path, for_write=True), data)  # a crash: the old file or the new
        except Refusal as exc:
            raise ValueError(str(exc)) from exc

    def walk(self, prune: frozenset[str] = frozenset()) -> list[str]:
        if os.path.lexists(self.workspace / ".git"):
            try:
                listed = self.git("ls-files", "-z", "--cached", "--others", "--exclude-standard", write=False)
            except (OSError, TimeoutError):
                listed = Completed(-1, b"")
            if listed.ok:
                return sorted({p for p in listed.stdout.decode("utf-8", "surrogateescape").split("\0") if p})
        return walk_paths(self.workspace, PRUNED | prune)  # not a repository, or git missing or broken

    def search(self, pattern: str, paths: Sequence[str] | None = None) -> list[tuple[str, int, str]]:
        matcher = compile_pattern(pattern)
        if isinstance(matcher, str):
            raise ValueError(matcher)
        hits: list[tuple[str, int, str]] = []
        for rel in self.walk() if paths is None else paths:
            try:
                text = self.read(rel).decode("utf-8", "replace")
            except (OSError, ValueError):
                continue
            if matcher.anywhere(text):
                hits += [(rel, n, line) for n, line in enumerate(text.splitlines(), 1) if matcher.line(line)]
        return hits

    @contextmanager
    def command(self) -> Iterator[LocalLauncher]:
        root = workspace_root(self.workspace)
        try:
            launcher = LocalLauncher(
                ossandbox.prepare(
                    root,
                    writable=self.writable,
                    network=self.network,
                    extra_read=self.read_paths,
                    extra_env=self.env_names,
                    limits=self.limits,
                )
            )
        except ossandbox.SandboxUnavailable as exc:
            launcher = LocalLauncher(ossandbox.unsandboxed(root), unavailable=str(exc))
        try:
            yield launcher
        finally:
            launcher.finish()

    def run(self, argv: Sequence[str], *, timeout: float, input: bytes | None = None) -> Completed:
        """SandboxUnavailable (ossandbox) when no jail can run here: this call never runs a program outside it."""
        with self.command() as launcher:
            if launcher.unavailable:
                raise ossandbox.SandboxUnavailable(launcher.unavailable)
            proc = launcher.start(
                argv,
                stdin=subprocess.DEVNULL if input is None else subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            try:
                out, err = proc.communicate(input, timeout=timeout)
            except subprocess.TimeoutExpired as exc:
                launcher.kill(proc)
                proc.communicate()
                raise TimeoutError(f"{argv[0]} ran past {timeout:g} s") from exc
        return Completed(proc.returncode, out, err)

    def git(
        self,
        *args: str,
        write: bool | None = None,
        input: bytes | None = None,
        env: Mapping[str, str] | None = None,
        timeout: float | None = None,
    ) -> Completed:
        try:
            done = run_git(self.workspace, args, write=write, input=input, env=env, timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            raise TimeoutError(f"git {args[0] if args else ''} ran past {timeout:g} s") from exc
        return Completed(done.returncode, done.stdout, done.stderr)

    def temp_path(self, name: str) -> str:
        # The scratch folder of the repository's top: the one folder outside it that git's jail binds writable.
        top = repository_top(self.workspace) or self.workspace
        return str(ossandbox.scratch_dir(top) / name)


def _kind(entry: os.DirEntry[str]) -> EntryKind:
    if entry.is_dir(follow_symlinks=False):
        return "dir"
    return "file" if entry.is_file() else "other"  # is_file follows a link: a link to a file is a file
