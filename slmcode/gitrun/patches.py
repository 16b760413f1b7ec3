"""Review-mode patches in git runs: `slmcode apply` of a patch a git run staged becomes a commit.

A run in branch mode that has not been accepted keeps the user's folder untouched, so its patches are committed
on its branch (through a temporary index: no checkout, the working tree unchanged) and `slmcode accept` brings
them. A patch of an in-place or accepted run is written as before and committed on the user's branch. Any
other patch (no git run, git_mode off) is applied exactly as `tools.pending` always did.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from slmcode.gitrun.git import Git
from slmcode.gitrun.run_record import RunRecord, load_record
from slmcode.tools.pending import PlannedWrite, apply_pending, plan_pending
from slmcode.tools.permissions import Patch, patch_folder


def _message(patch: Patch) -> str:
    return (
        f"slmcode: apply patch {patch.id} ({patch.path})\n\nReview-mode patch {patch.id} of task {patch.task_id}."
        f"\n\nSlmcode-Run: {patch.run_id}\nSlmcode-Patch: {patch.id}\n"
    )


def _commit_on_branch(git: Git, record: RunRecord, plan: PlannedWrite) -> str:
    """A commit of the patch's file on the run's branch, made off to the side: a temporary index, no checkout."""
    index = git.temp_path(f"{record.run_id}.patch-index")  # where the jailed git may write
    env = {"GIT_INDEX_FILE": str(index)}
    tip = git.out("rev-parse", f"refs/heads/{record.branch}")
    prefix = git.out("rev-parse", "--show-prefix")
    try:
        git.call("read-tree", tip, env=env)
        blob = git.out("hash-object", "-w", "--stdin", input=plan.new)
        mode = "100755" if plan.target.real.is_file() and plan.target.real.stat().st_mode & 0o111 else "100644"
        git.call("update-index", "--add", "--cacheinfo", f"{mode},{blob},{prefix}{plan.patch.path}", env=env)
        tree = git.out("write-tree", env=env)
    finally:
        index.unlink(missing_ok=True)
    sha = git.out("commit-tree", tree, "-p", tip, input=_message(plan.patch).encode())
    git.call("update-ref", f"refs/heads/{record.branch}", sha, tip)
    return sha


def apply_patches(workspace: Path, ids: Sequence[str] | None = None) -> list[str]:
    """Apply the chosen patches (all when ids is empty); one line per patch saying where it went. Refuses them
    all, changing nothing, when any is refused (as `apply_pending` does)."""
    checked: list[PlannedWrite] = []
    for plan in plan_pending(workspace, ids):
        if not isinstance(plan, PlannedWrite):
            raise plan
        checked.append(plan)
    git = Git(workspace)
    records = {p.patch.run_id: load_record(workspace, p.patch.run_id) for p in checked if p.patch.run_id}
    # A finished branch-mode run: its branch is not checked out, so a commit there touches nothing of the user's.
    on_branch = [
        p
        for p in checked
        if (r := records.get(p.patch.run_id)) is not None and r.state == "finished" and not r.on_user_branch
    ]
    rest = [p for p in checked if p not in on_branch]
    lines = []
    for plan in on_branch:
        record = records[plan.patch.run_id]
        assert record is not None
        sha = _commit_on_branch(git, record, plan)
        (patch_folder(workspace, "review") / f"{plan.patch.id}.json").unlink()
        lines.append(
            f"committed {plan.patch.id}  {plan.patch.path} on {record.branch} ({sha[:12]}; "
            f"`slmcode accept {record.run_id}` brings it)"
        )
    applied = apply_pending(workspace, [p.patch.id for p in rest]) if rest else []
    for patch in applied:
        record = records.get(patch.run_id)
        if (
            record is not None
            and record.on_user_branch
            and git.current_branch() == (record.accepted_into or record.branch)
        ):
            git.call("add", "--", patch.path)
            git.call("commit", "-q", "--no-verify", "-F", "-", "--", patch.path, input=_message(patch).encode())
            lines.append(f"applied {patch.id}  {patch.path} and committed it on {git.current_branch()}")
        else:
            lines.append(f"applied {patch.id}  {patch.path}")
    return lines
