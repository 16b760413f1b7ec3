"""git for the git-native runs, through the workspace's Environment: every call runs inside the wall
(environment.gitwall), read-only where it only reads, with the working tree and its .git writable for the calls that
must write (add, commit, checkout, stash, branch, revert, merge, worktree). What a repository's configuration
could run on our behalf is switched off on every call (hooks, fsmonitor, commit signing, pagers, external
diff, gc, implicit bare repositories); a clean/smudge filter (git-lfs) runs, but only inside the wall.
Commits are made as `slmcode <slmcode@localhost>` so they say who wrote them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from slmcode.environment import Completed, LocalEnvironment
from slmcode.environment.gitsafe import STATUS, uncommitted_paths
from slmcode.errors import GitRunError

IDENTITY = {
    "GIT_AUTHOR_NAME": "slmcode",
    "GIT_AUTHOR_EMAIL": "slmcode@localhost",
    "GIT_COMMITTER_NAME": "slmcode",
    "GIT_COMMITTER_EMAIL": "slmcode@localhost",
}


class Git:
    """git in one workspace (its folder or any folder below the repository's top)."""

    def __init__(self, workspace: Path) -> None:
        self.env = LocalEnvironment(workspace)
        self.workspace = self.env.workspace  # absolute: a relative '.' names nothing inside git's wall

    def temp_path(self, name: str) -> Path:
        """A throwaway file or folder (a temporary index, a worktree) the jailed git may write."""
        return Path(self.env.temp_path(name))

    def call(
        self,
        *args: str,
        input: bytes | None = None,
        env: Mapping[str, str] | None = None,
        ok_codes: Sequence[int] = (0,),
    ) -> Completed:
        try:
            proc = self.env.git(*args, input=input, env={**IDENTITY, **(env or {})})
        except OSError as exc:
            raise GitRunError(f"git {args[0]} could not start in {self.workspace}: {exc}") from exc
        if proc.returncode not in ok_codes:
            detail = (proc.stderr or proc.stdout).decode(errors="replace").strip().splitlines()
            raise GitRunError(f"git {args[0]} failed in {self.workspace}: {detail[-1] if detail else proc.returncode}")
        return proc

    def out(self, *args: str, input: bytes | None = None, env: Mapping[str, str] | None = None) -> str:
        return self.call(*args, input=input, env=env).stdout.decode(errors="replace").strip()

    def ok(self, *args: str) -> bool:
        return self.call(*args, ok_codes=range(256)).returncode == 0

    # What the repository is.

    def is_repo(self) -> bool:
        return self.ok("rev-parse", "--is-inside-work-tree")

    def head(self) -> str | None:
        """HEAD's commit, or None in a repository with no commit yet."""
        proc = self.call("rev-parse", "--verify", "-q", "HEAD^{commit}", ok_codes=(0, 1))
        return proc.stdout.decode().strip() or None

    def current_branch(self) -> str | None:
        """The checked-out branch's short name; None when HEAD is detached."""
        proc = self.call("symbolic-ref", "-q", "--short", "HEAD", ok_codes=(0, 1))
        return proc.stdout.decode().strip() or None

    def resolve(self, ref: str) -> str | None:
        proc = self.call("rev-parse", "--verify", "-q", f"{ref}^{{commit}}", ok_codes=(0, 1))
        return proc.stdout.decode().strip() or None

    def dirty(self) -> list[str]:
        """The paths with uncommitted changes (staged, unstaged or untracked), the harness's folder aside."""
        return uncommitted_paths(self.call(*STATUS).stdout.decode(errors="replace"))

    def changed_files(self, old: str, new: str) -> list[tuple[str, str]]:
        """(status letter, path) of every file that differs between two commits, below the workspace."""
        raw = self.out("diff", "--name-status", "--no-renames", old, new, "--", ".")
        return [(line[0], line.split("\t", 1)[1]) for line in raw.splitlines() if "\t" in line]
