"""Commands for patches staged by --permission review: diff, apply, reject."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from slmcode.commands.common import (
    JsonOpt,
    WorkspaceOpt,
    console,
    print_json,
)

app = typer.Typer()

PatchIdsArg = Annotated[list[str] | None, typer.Argument(help="Patch ids; all pending patches when omitted.")]


@app.command("diff")
def diff_pending(workspace: WorkspaceOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Show what `apply` would write for each staged patch (permission: review), or why it would refuse it."""
    from slmcode.errors import PatchError
    from slmcode.tools.pending import plan_pending

    plans = plan_pending(workspace)
    if as_json:
        print_json(
            [
                {"id": p.patch.id, "path": p.patch.path, "task_id": p.patch.task_id, "diff": p.diff()}
                if not isinstance(p, PatchError)
                else {"refused": str(p)}
                for p in plans
            ]
        )
        return
    if not plans:
        console.print("No pending patches.")
    for plan in plans:
        if isinstance(plan, PatchError):
            console.print(f"[bold red]refused[/bold red] {plan}", highlight=False, soft_wrap=True)  # one line
            continue
        console.print(
            f"[bold]patch {plan.patch.id}[/bold]  {plan.patch.path}  (task {plan.patch.task_id})", highlight=False
        )
        diff = plan.diff()
        sys.stdout.write(diff if diff.endswith("\n") or not diff else diff + "\n")
    if any(isinstance(plan, PatchError) for plan in plans):
        raise typer.Exit(code=2)  # `apply` would refuse: a script checking `diff` must notice


@app.command("apply")
def apply_patches(ids: PatchIdsArg = None, workspace: WorkspaceOpt = Path(".")) -> None:
    """Write staged patches to disk; refuses them all if one was altered, is stale or targets a protected path.
    A patch of a git run becomes a commit (on the run's branch until `slmcode accept`)."""
    from slmcode.gitrun.patches import apply_patches

    lines = apply_patches(workspace, ids or None)
    console.print("\n".join(lines) or "No pending patches.", highlight=False, soft_wrap=True)


@app.command("reject")
def reject_patches(ids: PatchIdsArg = None, workspace: WorkspaceOpt = Path(".")) -> None:
    """Discard staged patches without touching the files."""
    from slmcode.tools.pending import reject_pending

    rejected = reject_pending(workspace, ids or None)
    console.print("\n".join(f"rejected {i}  {path}" for i, path in rejected) or "No pending patches.", highlight=False)
