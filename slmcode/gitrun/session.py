"""A git run's life in the user's folder: start (refuse or stash a dirty tree, check out the run's branch),
commit tasks as they are accepted, finish (save leftovers, return the user to their branch, restore the stash).
The design and why it is a branch in place: see the package docstring."""

from __future__ import annotations

from pathlib import Path

from slmcode.environment.gitsafe import OUTSIDE
from slmcode.errors import GitRunError
from slmcode.gitrun.commits import commit_done
from slmcode.gitrun.git import Git
from slmcode.gitrun.run_record import BRANCH_PREFIX, LEFTOVERS, GitMode, RunRecord, load_record, save_record
from slmcode.state import Task

SHOWN_DIRTY = 5


def dirty_refusal(paths: list[str], where: str, hint: str = ", or pass --stash") -> GitRunError:
    shown = ", ".join(paths[:SHOWN_DIRTY]) + (
        f" and {len(paths) - SHOWN_DIRTY} more" if len(paths) > SHOWN_DIRTY else ""
    )
    return GitRunError(f"uncommitted changes in {shown}: commit or stash them{hint} ({where})")


class GitRun:
    """The git side of one run; every method is safe to call again after a crash."""

    def __init__(self, git: Git, record: RunRecord) -> None:
        self.git, self.record = git, record

    @property
    def workspace(self) -> Path:
        return self.git.workspace

    @classmethod
    def start(cls, workspace: Path, run_id: str, mode: GitMode, *, stash: bool) -> GitRun:
        git = Git(workspace)
        base = git.head()
        if base is None:
            raise GitRunError(f"{workspace} has no commit yet: commit once before a git run (or git_mode: off)")
        user_branch = git.current_branch()
        if mode == "in-place" and user_branch is None:
            raise GitRunError("HEAD is detached: check out a branch for an in-place run (or use git_mode: branch)")
        branch = f"{BRANCH_PREFIX}{run_id}" if mode == "branch" else str(user_branch)
        if mode == "branch" and git.resolve(f"refs/heads/{branch}") is not None:
            raise GitRunError(f"branch {branch} exists already: start the run with another id, or delete it")
        dirty = git.dirty()
        if dirty and not stash:
            raise dirty_refusal(dirty, "a git run starts from a clean tree")
        saved = None
        if dirty:
            git.call(
                "stash",
                "push",
                "-q",
                "--include-untracked",
                "-m",
                f"slmcode {run_id}: your uncommitted work",
                "--",
                ".",
                OUTSIDE,
            )
            saved = git.resolve("stash@{0}")
        record = RunRecord(run_id=run_id, mode=mode, branch=branch, user_branch=user_branch, base=base, stash=saved)
        save_record(workspace, record)  # before the checkout: a run killed after it knows its way back
        run = cls(git, record)
        try:
            run._on_run_branch()
        except GitRunError:
            run._restore_stash()  # the run never started: the user's work comes back at once
            run.record = run.record.model_copy(update={"state": "undone"})
            save_record(workspace, run.record)
            raise
        return run

    @classmethod
    def reopen(cls, workspace: Path, run_id: str) -> GitRun | None:
        """A resumed run's git side: back on its branch if something moved it; None when it was no git run."""
        record = load_record(workspace, run_id)
        if record is None:
            return None
        run = cls(Git(workspace), record)
        if record.state == "running":
            run._on_run_branch()
        return run

    def _on_run_branch(self) -> None:
        if self.record.mode != "branch" or self.git.current_branch() == self.record.branch:
            return
        dirty = self.git.dirty()
        if dirty:
            raise dirty_refusal(dirty, f"the run continues on branch {self.record.branch}", hint="")
        if self.git.resolve(f"refs/heads/{self.record.branch}") is None:
            self.git.call("checkout", "-q", "-b", self.record.branch, self.record.base)
        else:
            self.git.call("checkout", "-q", self.record.branch)

    def commit_tasks(self, tasks: list[Task]) -> list[str]:
        """Commit the tasks accepted since the last call (idempotent); the ids committed now."""
        if self.record.state != "running":
            return []
        return commit_done(self.git, self.record.run_id, self.record.base, self.record.branch, tasks)

    def abandon(self) -> list[str]:
        """Leave a run that stopped on its branch without finishing: the user's branch and stash come back."""
        notes = self._leave_branch()[:-1] if self.record.mode == "branch" else []
        return notes + self._restore_stash()

    def cancel(self) -> list[str]:
        """The run failed before its first checkpoint (nothing to resume): the user gets their branch and work
        back, and the run's branch goes when it holds no commit."""
        notes = self.abandon()
        branch = f"refs/heads/{self.record.branch}"
        if self.record.mode == "branch" and self.git.resolve(branch) == self.record.base:
            self.git.call("update-ref", "-d", branch, self.record.base)
        self.record = self.record.model_copy(update={"state": "undone"})
        save_record(self.workspace, self.record)
        return notes

    def finish(self, tasks: list[Task]) -> list[str]:
        """The run ended (done or failed): commit what was accepted, and in branch mode give the user their
        folder back. Returns one line per thing the user should know."""
        notes = [f"committed {', '.join(ids)} on {self.record.branch}" for ids in [self.commit_tasks(tasks)] if ids]
        if self.record.mode == "branch":
            notes += self._leave_branch()
        notes += self._restore_stash()
        self.record = self.record.model_copy(update={"state": "finished"})
        save_record(self.workspace, self.record)
        return notes

    def _leave_branch(self) -> list[str]:
        notes = []
        if self.git.current_branch() == self.record.branch:
            if self.git.dirty():
                notes.append(self._save_leftovers())
            target = self.record.user_branch or self.record.base
            self.git.call("checkout", "-q", *([] if self.record.user_branch else ["--detach"]), target)
        notes.append(
            f"the run's commits are on branch {self.record.branch}: "
            f"`slmcode accept {self.record.run_id}` brings them to {self.record.user_branch or 'HEAD'}"
        )
        return notes

    def _save_leftovers(self) -> str:
        """Keep what no accepted task committed (a failed task's edits) as a commit under refs/slmcode/, then
        clean the run's branch so the checkout back to the user's branch carries nothing over."""
        # The temporary index lives where the jailed git may write (never the read-only .slmcode).
        index = self.git.temp_path(f"{self.record.run_id}.index")
        env = {"GIT_INDEX_FILE": str(index)}
        try:
            self.git.call("read-tree", "HEAD", env=env)
            self.git.call("add", "-A", "--", ".", OUTSIDE, env=env)
            tree = self.git.out("write-tree", env=env)
        finally:
            index.unlink(missing_ok=True)
        message = f"slmcode: what run {self.record.run_id} left uncommitted\n"
        sha = self.git.out("commit-tree", tree, "-p", "HEAD", "-m", message)
        ref = f"{LEFTOVERS}{self.record.run_id}"
        self.git.call("update-ref", ref, sha)
        self.record = self.record.model_copy(update={"leftovers": ref})
        save_record(self.workspace, self.record)
        self.git.call("checkout", "-q", "HEAD", "--", ".", OUTSIDE)
        self.git.call("clean", "-fdq", "--", ".", OUTSIDE)
        return f"uncommitted edits of unaccepted tasks are kept as {ref} (`git show {ref}`)"

    def _restore_stash(self) -> list[str]:
        sha = self.record.stash
        if not sha:
            return []
        proc = self.git.call("stash", "apply", "-q", "--index", sha, ok_codes=range(256))
        if proc.returncode != 0:
            return [f"your stashed changes could not be applied cleanly: they stay in `git stash list` ({sha[:12]})"]
        listed = self.git.out("stash", "list", "--format=%H").splitlines()
        if sha in listed:
            self.git.call("stash", "drop", "-q", f"stash@{{{listed.index(sha)}}}")
        self.record = self.record.model_copy(update={"stash": None})
        save_record(self.workspace, self.record)
        return ["your uncommitted changes are back (they were stashed for the run)"]


def open_git_run(workspace: Path, run_id: str, mode: str, *, stash: bool, fresh: bool) -> GitRun | None:
    """The run's git side: None when git_mode is off or the workspace is no git repository (its undo then
    comes from the journal's before-images). `fresh`: a new run (start); else a resumed one (reopen)."""
    if mode == "off" or not Git(workspace).is_repo():
        return None
    if not fresh:
        return GitRun.reopen(workspace, run_id)
    return GitRun.start(workspace, run_id, "in-place" if mode == "in-place" else "branch", stash=stash)


class TaskWatch:
    """Follows the run's tasks through the graph's `updates` stream (merged by id, as the state's reducer
    does) and commits each task when the reviewer accepts it: the stream hands a node's update over before the
    step's checkpoint is written, so the graph's own state would lag one step behind."""

    def __init__(self, run: GitRun, tasks: list[Task]) -> None:
        self.run = run
        self.tasks = {t.id: t for t in tasks}

    def __call__(self, chunk: dict) -> None:
        newly_done = False
        for update in chunk.values():
            for task in (update or {}).get("tasks", []) if isinstance(update, dict) else []:
                if isinstance(task, Task):
                    newly_done |= task.status == "done" and getattr(self.tasks.get(task.id), "status", "") != "done"
                    self.tasks[task.id] = task
        if newly_done:
            self.run.commit_tasks(list(self.tasks.values()))
