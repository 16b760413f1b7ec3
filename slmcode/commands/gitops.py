"""`slmcode accept RUN`, `slmcode undo [RUN|TASK]`, `slmcode rewind RUN --to TASK` (slmcode.gitrun)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from slmcode.commands.common import JsonOpt, WorkspaceOpt, console, print_json

app = typer.Typer()

DryRunOpt = Annotated[bool, typer.Option("--dry-run", help="List what would change; change nothing.")]
RunOpt = Annotated[str | None, typer.Option("--run", help="The run a task id belongs to (default: the latest).")]


def _show(outcome: object, dry_run: bool, as_json: bool) -> None:
    message, changes = outcome.message, outcome.changes  # type: ignore[attr-defined]
    if as_json:
        print_json({"message": message, "dry_run": dry_run, "changes": [{"status": s, "path": p} for s, p in changes]})
        return
    console.print(message, highlight=False, soft_wrap=True)
    for status, path in changes:
        console.print(f"  {status} {path}", highlight=False, soft_wrap=True)


@app.command("accept")
def accept_run(
    run_id: Annotated[str, typer.Argument(help="The run whose branch to bring into your checked-out branch.")],
    workspace: WorkspaceOpt = Path("."),
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Bring a git run's commits into your branch (fast-forward when it can, else a merge commit)."""
    from slmcode.gitrun.ops import accept

    _show(accept(workspace.resolve(), run_id, dry_run=dry_run), dry_run, as_json)


@app.command("undo")
def undo(
    target: Annotated[
        str | None, typer.Argument(help="A run id (the whole run) or a task id (one task); default: the latest run.")
    ] = None,
    run: RunOpt = None,
    workspace: WorkspaceOpt = Path("."),
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Restore files as they were before a run or one of its tasks: through its commits in a git run, from the
    journal's before-images otherwise."""
    from slmcode.gitrun.undo import undo_target

    _show(undo_target(workspace.resolve(), target, run, dry_run=dry_run), dry_run, as_json)


@app.command("rewind")
def rewind(
    run_id: Annotated[str, typer.Argument(help="The run to rewind.")],
    to: Annotated[str, typer.Option("--to", help="The last task to keep; every later task is undone.")],
    workspace: WorkspaceOpt = Path("."),
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Undo every task of a run after the given one."""
    from slmcode.gitrun.undo import rewind_run

    _show(rewind_run(workspace.resolve(), run_id, to, dry_run=dry_run), dry_run, as_json)
