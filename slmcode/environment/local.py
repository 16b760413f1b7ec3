"""LocalEnvironment: today's implementation. Files are the host's, reached only through the workspace's
containment rules (containment.py: no path out, no symlink out, nothing written into `.git`/`.slmcode`);
programs and the harness's own git run inside the bubblewrap jail (ossandbox.py, gitwall.py).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from slmcode.environment import ossandbox
from slmcode.environment.containment import Refusal, resolve_path, workspace_root
from slmcode.environment.gitwall import repository_top, run_git
from slmcode.environment.patterns import compile_pattern
from slmcode.environment.protocol import Completed
from slmcode.environment.walk import walk_paths

PRUNED = frozenset({".git", ".slmcode"})


class LocalEnvironment:
    """One workspace on this machine. `writable`: programs may change the workspace (auto permission);
    `network`, `read_paths`, `env_names`: the sandbox settings of the same names."""

    name = "local (bubblewrap)"

    def __init__(self, workspace: Path, *, writable: bool = True, network: bool = False,
                 read_paths: Sequence[str] = (), env_names: Sequence[str] = ()) -> None:
        self.workspace = Path(workspace)
        self.writable, self.network = writable, network
        self.read_paths, self.env_names = tuple(read_paths), tuple(env_names)

    def _path(self, path: str, *, for_write: bool = False) -> Path:
        try:
            return resolve_path(self.workspace, path, for_write=for_write).real
        except Refusal as exc:
            raise ValueError(str(exc)) from exc

    def read(self, path: str) -> bytes:
        return self._path(path).read_bytes()

    def write(self, path: str, data: bytes) -> None:
        target = self._path(path, for_write=True)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)

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

    def run(self, argv: Sequence[str], *, timeout: float, input: bytes | None = None) -> Completed:
        """SandboxUnavailable (ossandbox) when no jail can run here: this environment never runs a program
        outside it."""
        root = workspace_root(self.workspace)
        jail = ossandbox.prepare(root, writable=self.writable, network=self.network, extra_read=self.read_paths,
                                 extra_env=self.env_names)
        try:
            done = subprocess.run(jail.argv(argv), cwd=root, env=jail.env, input=input, capture_output=True,
                                  timeout=timeout, check=False, start_new_session=True)
        except subprocess.TimeoutExpired as exc:
            raise TimeoutError(f"{argv[0]} ran past {timeout:g} s") from exc
        finally:
            jail.undo_new_protected()
        return Completed(done.returncode, done.stdout, done.stderr)

    def git(self, *args: str, write: bool | None = None, input: bytes | None = None,
            env: Mapping[str, str] | None = None, timeout: float | None = None) -> Completed:
        try:
            done = run_git(self.workspace, args, write=write, input=input, env=env, timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            raise TimeoutError(f"git {args[0] if args else ''} ran past {timeout:g} s") from exc
        return Completed(done.returncode, done.stdout, done.stderr)

    def temp_path(self, name: str) -> str:
        # The scratch folder of the repository's top: the one folder outside it that git's jail binds writable.
        top = repository_top(self.workspace) or self.workspace
        return str(ossandbox.scratch_dir(top) / name)
