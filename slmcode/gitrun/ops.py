"""`accept`, `undo` and `rewind` for git runs: restore files exactly as they were, through the run's commits.

Before `accept` the run's commits are only on slmcode/RUN_ID: undoing a task reverts it there (in a temporary
worktree, the user's folder untouched), rewinding moves that branch back (its old tip kept under
refs/slmcode/retired/), undoing the run retires the branch. Once the commits are in the user's history
(accepted, or an in-place run) undo and rewind add revert commits: the user's history is never rewritten.
Every operation has a dry run: the files it would change, and where.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from slmcode.errors import GitRunError
from slmcode.gitrun.commits import TaskCommit, task_commits
from slmcode.gitrun.git import Git
from slmcode.gitrun.run_record import RETIRED, RunRecord, all_records, load_record, save_record
from slmcode.gitrun.session import GitRun, dirty_refusal
from slmcode.treewalk import remove_tree


@dataclass
class Outcome:
    message: str  # one line: what was (or, in a dry run, would be) done
    changes: list[tuple[str, str]] = field(default_factory=list)  # (A/M/D, path) of the files concerned


def git_run(workspace: Path, run_id: str) -> RunRecord:
    record = load_record(workspace, run_id)
    if record is None:
        known = ", ".join(r.run_id for r in all_records(workspace)[-5:]) or "none"
        raise GitRunError(f"no git run '{run_id}' in {workspace} (latest git runs: {known})")
    return record


def _commits(git: Git, record: RunRecord) -> list[TaskCommit]:
    tip = record.branch if git.resolve(f"refs/heads/{record.branch}") else f"{RETIRED}{record.run_id}"
    return task_commits(git, record.base, tip, record.run_id)


def _task_commit(git: Git, record: RunRecord, task_id: str) -> tuple[int, list[TaskCommit]]:
    commits = _commits(git, record)
    for index, commit in enumerate(commits):
        if commit.task_id == task_id:
            return index, commits
    have = ", ".join(c.task_id for c in commits) or "none"
    raise GitRunError(f"run {record.run_id} has no commit for task '{task_id}' (its task commits: {have})")


def _ready(git: Git, record: RunRecord, verb: str) -> None:
    """Not while the run still sits on its branch; the user's branch checked out and clean when it is touched."""
    if record.state == "undone":
        raise GitRunError(f"run {record.run_id} was undone already")
    if record.state == "running" and git.current_branch() == record.branch and record.mode == "branch":
        raise GitRunError(
            f"run {record.run_id} has not finished: `slmcode resume {record.run_id}` first, "
            f"or `slmcode undo {record.run_id}` to abandon it"
        )
    if record.on_user_branch:
        into = record.accepted_into or record.branch
        if git.current_branch() != into:
            raise GitRunError(f"run {record.run_id}'s commits are on {into}: check out {into} to {verb} it")
        dirty = git.dirty()
        if dirty:
            raise dirty_refusal(dirty, f"{verb} changes files in your folder", hint="")


def _revert_here(git: Git, record: RunRecord, commits: list[TaskCommit], message: str) -> None:
    """Revert the commits (newest first) on the checked-out branch as one new commit; a conflict changes nothing."""
    shas = [c.sha for c in reversed(commits) if not git.ok("diff", "--quiet", f"{c.sha}^", c.sha)]
    if not shas:
        return
    proc = git.call("revert", "--no-commit", *shas, ok_codes=range(256))
    if proc.returncode != 0:
        git.call("revert", "--abort", ok_codes=range(256))
        raise GitRunError(f"{message} conflicts with later changes on {git.current_branch()}: nothing was changed")
    git.call("commit", "-q", "--no-verify", "-m", message)


def accept(workspace: Path, run_id: str, *, dry_run: bool = False) -> Outcome:
    git = Git(workspace)
    record = git_run(workspace, run_id)
    if record.mode == "in-place":
        raise GitRunError(f"run {run_id} ran in place: its commits are already on {record.branch}")
    if record.state == "accepted":
        raise GitRunError(f"run {run_id} is already accepted into {record.accepted_into}")
    _ready(git, record, "accept")
    into = git.current_branch()
    if into is None or into == record.branch:
        raise GitRunError(f"check out the branch to accept run {run_id} into (HEAD is {into or 'detached'})")
    dirty = git.dirty()
    if dirty:
        raise dirty_refusal(dirty, "accept changes files in your folder", hint="")
    changes = git.changed_files("HEAD", record.branch)
    if dry_run:
        return Outcome(
            f"accept would bring {len(_commits(git, record))} commit(s) of {record.branch} into {into}", changes
        )
    if git.ok("merge-base", "--is-ancestor", "HEAD", record.branch):
        git.call("merge", "--ff-only", "-q", record.branch)
        how = "fast-forwarded"
    else:
        proc = git.call(
            "merge",
            "--no-ff",
            "-q",
            "--no-verify",
            "-m",
            f"slmcode: accept run {run_id}",
            record.branch,
            ok_codes=range(256),
        )
        if proc.returncode != 0:
            git.call("merge", "--abort", ok_codes=range(256))
            raise GitRunError(
                f"run {run_id} conflicts with {into}: nothing was changed; merge it by hand (git merge {record.branch})"
            )
        how = "merged"
    save_record(workspace, record.model_copy(update={"state": "accepted", "accepted_into": into}))
    return Outcome(f"{how} {record.branch} into {into}", changes)


def undo_run(workspace: Path, run_id: str, *, dry_run: bool = False) -> Outcome:
    git = Git(workspace)
    record = git_run(workspace, run_id)
    if record.state == "undone":
        raise GitRunError(f"run {run_id} was undone already")
    commits = _commits(git, record)
    if record.on_user_branch:
        _ready(git, record, "undo")
        changes = git.changed_files(commits[-1].sha, record.base) if commits else []
        if dry_run:
            return Outcome(
                f"undo would revert {len(commits)} commit(s) of run {run_id} on {git.current_branch()}", changes
            )
        _revert_here(git, record, commits, f"slmcode: undo run {run_id}")
        save_record(workspace, record.model_copy(update={"state": "undone"}))
        return Outcome(f"reverted run {run_id} on {git.current_branch()} (one new commit)", changes)
    tip = git.resolve(f"refs/heads/{record.branch}")
    changes = git.changed_files(record.base, tip) if tip else []
    if dry_run:
        return Outcome(
            f"undo would retire branch {record.branch} (your files do not change; these never reached your branch)",
            changes,
        )
    notes = GitRun(git, record).abandon() if record.state == "running" else []
    if tip:
        git.call("update-ref", f"{RETIRED}{run_id}", tip)
        git.call("branch", "-q", "-D", record.branch)
    fresh = load_record(workspace, run_id) or record
    save_record(workspace, fresh.model_copy(update={"state": "undone"}))
    return Outcome(
        f"retired branch {record.branch} (kept as {RETIRED}{run_id}); "
        + "; ".join(notes or ["your files did not change"]),
        changes,
    )


def undo_task(workspace: Path, run_id: str, task_id: str, *, dry_run: bool = False) -> Outcome:
    git = Git(workspace)
    record = git_run(workspace, run_id)
    _ready(git, record, "undo")
    index, commits = _task_commit(git, record, task_id)
    commit = commits[index]
    changes = git.changed_files(commit.sha, f"{commit.sha}^")
    where = git.current_branch() if record.on_user_branch else record.branch
    if dry_run:
        return Outcome(f"undo would revert task {task_id}'s commit {commit.sha[:12]} on {where}", changes)
    message = f"slmcode: undo task {task_id} of run {run_id}"
    if record.on_user_branch:
        _revert_here(git, record, [commit], message)
    else:
        _revert_on_run_branch(git, record, commit, message)
    return Outcome(f"reverted task {task_id} on {where} (one new commit)", changes)


def _revert_on_run_branch(git: Git, record: RunRecord, commit: TaskCommit, message: str) -> None:
    """Revert in a throwaway worktree of the run's branch: the user's folder and branch stay as they are."""
    folder = git.temp_path(f"worktree-{record.run_id}")  # outside the workspace, where the jailed git may write
    remove_tree(folder)
    git.call("worktree", "prune")
    git.call("worktree", "add", "-q", str(folder), record.branch)
    try:
        there = Git(folder)
        if there.call("revert", "--no-edit", commit.sha, ok_codes=range(256)).returncode != 0:
            there.call("revert", "--abort", ok_codes=range(256))
            raise GitRunError(
                f"task {commit.task_id}'s changes were changed again by a later task of run "
                f"{record.run_id}: nothing was changed; `slmcode rewind {record.run_id} --to` an "
                "earlier task instead"
            )
        there.call("commit", "-q", "--amend", "--no-verify", "-m", message)
    finally:
        git.call("worktree", "remove", "--force", str(folder), ok_codes=range(256))


def rewind(workspace: Path, run_id: str, to_task: str, *, dry_run: bool = False) -> Outcome:
    git = Git(workspace)
    record = git_run(workspace, run_id)
    _ready(git, record, "rewind")
    index, commits = _task_commit(git, record, to_task)
    later = commits[index + 1 :]
    if not later:
        raise GitRunError(f"task {to_task} is run {run_id}'s last commit: nothing to rewind")
    target, tip = commits[index].sha, later[-1].sha
    changes = git.changed_files(tip, target)
    dropped = ", ".join(c.task_id for c in later)
    if record.on_user_branch:
        where = git.current_branch()
        if dry_run:
            return Outcome(f"rewind would revert task(s) {dropped} on {where}", changes)
        _revert_here(git, record, later, f"slmcode: rewind run {run_id} to task {to_task}")
        return Outcome(f"reverted task(s) {dropped} on {where} (one new commit)", changes)
    if dry_run:
        return Outcome(f"rewind would move {record.branch} back to task {to_task}, dropping {dropped}", changes)
    current = git.out("rev-parse", f"refs/heads/{record.branch}")
    git.call("update-ref", f"{RETIRED}{run_id}-{current[:12]}", current)
    git.call("update-ref", f"refs/heads/{record.branch}", target, current)
    return Outcome(
        f"moved {record.branch} back to task {to_task} (dropped {dropped}; the old tip is kept as "
        f"{RETIRED}{run_id}-{current[:12]})",
        changes,
    )
