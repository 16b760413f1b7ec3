"""Review and dry-run as a wrapper around the task's Environment: a write becomes a recorded patch (permissions.py
says what a patch holds and where it lives), a read sees the task's own patches, and programs and git run in
the environment underneath, which in these modes lets them read the workspace only. ToolContext wraps its
environment in one when the permission is not `auto`, so the tools write through `ctx.env` in every mode.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from slmcode.environment import Completed, Entry, Environment
from slmcode.environment.containment import Refusal, resolve_path
from slmcode.environment.protocol import EntryKind, Launcher
from slmcode.tools.permissions import (
    Encoding,
    Patch,
    PatchMode,
    content_hash,
    load_patches,
    patch_folder,
    save_new,
    save_patch,
    sha256_of,
)


class StagingEnvironment:
    """`inner` with its writes staged as `mode` patches of this run and task."""

    def __init__(self, inner: Environment, workspace: Path, mode: PatchMode, run_id: str, task_id: str) -> None:
        self.inner, self.workspace, self.mode = inner, Path(workspace), mode
        self.run_id, self.task_id = run_id, task_id
        self.name = f"{inner.name}; {mode}: writes become patches"

    @property
    def folder(self) -> Path:
        return patch_folder(self.workspace, self.mode, self.run_id)

    def patch(self, shown: str) -> Patch | None:
        """The patch kept for the file the tools show as `shown`, if any."""
        return next((p for p in load_patches(self.folder) if p.path == shown), None)

    def patches(self) -> list[Patch]:
        return load_patches(self.folder)

    def stage(self, shown: str, real: Path, new_text: str, encoding: Encoding) -> Patch:
        """Record (or update) the file's patch; returns it with its id."""
        data = new_text.encode(encoding)
        previous = self.patch(shown)
        base = previous.base_sha256 if previous is not None else sha256_of(real)
        fields: dict[str, Any] = {"new_text": new_text, "encoding": encoding, "sha256": content_hash(shown, data, base)}
        if previous is not None:
            patch = previous.model_copy(update=fields)
            save_patch(self.folder, patch)
            return patch
        draft = Patch(
            id="", path=shown, base_sha256=base, mode=self.mode, run_id=self.run_id, task_id=self.task_id, **fields
        )
        return save_new(self.folder, draft)

    def read(self, path: str, offset: int = 0, size: int | None = None) -> bytes:
        try:
            shown = resolve_path(self.workspace, path).rel
        except Refusal as exc:
            raise ValueError(str(exc)) from None
        patch = self.patch(shown)
        if patch is None:
            return self.inner.read(path, offset, size)
        return patch.new_bytes[offset : None if size is None else offset + size]

    def stat(self, path: str) -> Entry:
        return self.inner.stat(path)  # the disk's view: the tools ask for a file's patch themselves

    def listdir(self, path: str) -> list[tuple[str, EntryKind]]:
        return self.inner.listdir(path)

    def write(self, path: str, data: bytes) -> None:
        try:
            target = resolve_path(self.workspace, path, for_write=True)
        except Refusal as exc:
            raise ValueError(str(exc)) from None
        try:
            self.stage(target.rel, target.real, data.decode("utf-8"), "utf-8")
        except UnicodeDecodeError:  # latin-1 takes every byte back as it was
            self.stage(target.rel, target.real, data.decode("latin-1"), "latin-1")

    def walk(self, prune: frozenset[str] = frozenset()) -> list[str]:
        return self.inner.walk(prune)

    def search(self, pattern: str, paths: Sequence[str] | None = None) -> list[tuple[str, int, str]]:
        return self.inner.search(pattern, paths)

    def run(self, argv: Sequence[str], *, timeout: float, input: bytes | None = None) -> Completed:
        return self.inner.run(argv, timeout=timeout, input=input)

    def git(
        self,
        *args: str,
        write: bool | None = None,
        input: bytes | None = None,
        env: Mapping[str, str] | None = None,
        timeout: float | None = None,
    ) -> Completed:
        return self.inner.git(*args, write=write, input=input, env=env, timeout=timeout)

    def command(self) -> AbstractContextManager[Launcher]:
        return self.inner.command()

    def temp_path(self, name: str) -> str:
        return self.inner.temp_path(name)
