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
    """Show the patches staged for review (permission: review)."""
    from slmcode.tools.permissions import list_pending

    patches = list_pending(workspace)
    if as_json:
        print_json([p.model_dump(exclude={"new_text"}) for p in patches])
        return
    if not patches:
        console.print("No pending patches.")
    for patch in patches:
        console.print(f"[bold]patch {patch.id}[/bold]  {patch.path}  (task {patch.task_id})", highlight=False)
        sys.stdout.write(patch.diff if patch.diff.endswith("\n") or not patch.diff else patch.diff + "\n")


@app.command("apply")
def apply_patches(ids: PatchIdsArg = None, workspace: WorkspaceOpt = Path(".")) -> None:
    """Write staged patches to disk; refuses a patch whose file changed since it was staged."""
    from slmcode.tools.permissions import apply_pending

    applied = apply_pending(workspace, ids or None)
    console.print("\n".join(f"applied {p.id}  {p.path}" for p in applied) or "No pending patches.", highlight=False)


@app.command("reject")
def reject_patches(ids: PatchIdsArg = None, workspace: WorkspaceOpt = Path(".")) -> None:
    """Discard staged patches without touching the files."""
    from slmcode.tools.permissions import reject_pending

    rejected = reject_pending(workspace, ids or None)
    console.print("\n".join(f"rejected {p.id}  {p.path}" for p in rejected) or "No pending patches.", highlight=False)
