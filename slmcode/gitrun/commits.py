"""One commit per accepted task, exactly once: the message names the task and its verdicts and carries the
run and task ids as trailers, and a task whose trailer is already on the branch is not committed again. A run
killed between a task's approval and its commit commits it on resume; killed after, it finds the commit."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from slmcode.environment.gitsafe import OUTSIDE
from slmcode.gitrun.git import Git
from slmcode.state import Task

RUN_TRAILER = "Slmcode-Run"
TASK_TRAILER = "Slmcode-Task"
SEP, END = "\x1f", "\x1e"


@dataclass(frozen=True)
class TaskCommit:
    sha: str
    task_id: str
    subject: str


def commit_message(run_id: str, task: Task) -> str:
    lines = [f"slmcode: {task.id} {task.title}".strip()[:200], ""]
    lines.append(f"Task {task.id} of run {run_id} ({task.kind}, {task.attempts} attempt(s)).")
    if task.verdicts:
        lines += ["", "Verdicts:"]
        for v in task.verdicts:
            check = f" ({v.criterion.verify})" if v.criterion.verify else ""
            lines.append(f"  {v.status:<10} {v.criterion.priority}: {v.criterion.text}{check}")
    else:
        lines += ["", "Verdicts: none (no criterion was checked)"]
    if task.files_changed:
        lines += ["", "Files: " + ", ".join(task.files_changed)]
    lines += ["", f"{RUN_TRAILER}: {run_id}", f"{TASK_TRAILER}: {task.id}", ""]
    return "\n".join(lines)


def task_commits(git: Git, base: str, branch: str, run_id: str) -> list[TaskCommit]:
    """The run's task commits on `branch` since `base`, oldest first."""
    fmt = (
        f"%H{SEP}%(trailers:key={RUN_TRAILER},valueonly,separator=%x2C){SEP}"
        f"%(trailers:key={TASK_TRAILER},valueonly,separator=%x2C){SEP}%s{END}"
    )
    raw = git.out("log", "--reverse", "--first-parent", f"--format={fmt}", f"{base}..{branch}")
    found = []
    for entry in raw.split(END):
        parts = entry.strip().split(SEP)
        if len(parts) == 4 and parts[1].strip() == run_id and parts[2].strip():
            found.append(TaskCommit(parts[0], parts[2].strip(), parts[3]))
    return found


def _staged_paths(workspace: Path, git: Git, paths: list[str]) -> list[str]:
    """The task's files that git can stage: on disk now, or tracked (a deletion)."""
    return [p for p in paths if (workspace / p).exists() or git.ok("ls-files", "--error-unmatch", "--", p)]


def commit_task(git: Git, run_id: str, task: Task, *, only_its_files: bool) -> str:
    """Stage the task's changes and commit them on the checked-out branch (empty when it changed nothing, so
    every accepted task has its commit to rewind to). `only_its_files`: other tasks' edits are in the tree too,
    so stage only the files this task wrote; else everything (a formatter's or a command's edits as well)."""
    if only_its_files:
        paths = _staged_paths(git.workspace, git, task.files_changed)
        if paths:
            git.call("add", "-A", "--", *paths)
    else:
        git.call("add", "-A", "--", ".", OUTSIDE)
    git.call("commit", "-q", "--no-verify", "--allow-empty", "-F", "-", input=commit_message(run_id, task).encode())
    return git.out("rev-parse", "HEAD")


def commit_done(git: Git, run_id: str, base: str, branch: str, tasks: list[Task]) -> list[str]:
    """Commit every done task that has no commit yet, in task order; returns the ids committed now."""
    have = {c.task_id for c in task_commits(git, base, branch, run_id)}
    todo = [t for t in tasks if t.status == "done" and t.id not in have]
    # Edits of tasks not yet done (running, in review, being corrected, given up) are in the tree too.
    busy = any(t.status in ("running", "review", "rejected", "failed") for t in tasks)
    for index, task in enumerate(todo):
        last = index == len(todo) - 1
        commit_task(git, run_id, task, only_its_files=busy or not last)
    return [t.id for t in todo]
