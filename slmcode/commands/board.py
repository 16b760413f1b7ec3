"""`slmcode board` shows a run's tasks; `slmcode task edit|drop|add` edits the plan of a run paused at plan
approval (`slmcode run --approve plan`), and `slmcode resume` approves it as it then stands and goes on."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from slmcode.commands.common import JsonOpt, WorkspaceOpt, console, print_json

app = typer.Typer()
task_app = typer.Typer(help="Edit the plan of a run waiting for plan approval (then `slmcode resume RUN`).")
app.add_typer(task_app, name="task")

EXIT_WAITING = 4  # the run waits for the user's approval: neither done (0) nor failed (1)


class PlanPaused(Exception):
    """The CLI stops a run at its plan, so the user can look at it and edit it before any code is written."""

    def __init__(self, question: dict[str, Any]) -> None:
        super().__init__(f"run {question.get('run_id')} waits for plan approval")
        self.run_id = str(question.get("run_id"))


def plan_answerer(answer: Any, *, pause: bool) -> Any:
    """The CLI's answer to a plan question: stop there (`run --approve plan`), or approve (`resume`, --yes)."""

    def answer_plan(question: dict[str, Any]) -> Any:
        if question.get("kind") != "plan":
            return answer(question)
        if pause:
            raise PlanPaused(question)
        return "approve"

    return answer_plan


def show_paused(run_id: str, workspace: Path, as_json: bool) -> None:
    from slmcode.run_board import show_board

    board = show_board(run_id, workspace)
    if as_json:
        print_json({**board.as_json(), "status": "waiting"})
        return
    console.print(board_table(board))
    console.print(
        f"run {run_id} waits for plan approval: `slmcode task edit|drop|add {run_id} ...` changes the "
        f"plan, `slmcode resume {run_id}` approves it and goes on",
        highlight=False,
    )


def board_table(board: Any) -> Table:
    state = "waiting for plan approval" if board.waiting else f"phase {board.phase or 'start'}"
    table = Table(title=f"{board.run_id} ({state})", title_justify="left")
    for column in ("id", "title", "kind", "status", "depends on", "focus files", "criteria"):
        table.add_column(column, overflow="fold")
    for task in board.tasks:
        criteria = "\n".join(c.text + (f" [`{c.verify}`]" if c.verify else "") for c in task.criteria)
        table.add_row(
            task.id,
            task.title,
            task.kind,
            task.status,
            ", ".join(task.depends_on) or "-",
            "\n".join(task.focus_files) or "-",
            criteria or "-",
        )
    return table


@app.command()
def board(
    run_id: Annotated[str | None, typer.Argument(help="Run id or a unique prefix (default: the latest run).")] = None,
    workspace: WorkspaceOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Show a run's tasks, their status and dependencies, from its last checkpoint."""
    from slmcode.run_board import show_board

    found = show_board(run_id, workspace)
    if as_json:
        print_json(found.as_json())
        return
    console.print(board_table(found))
    if found.error:
        console.print(f"[red]last answer refused:[/red] {found.error}", highlight=False)


RunArg = Annotated[str, typer.Argument(help="The run waiting for plan approval (id or a unique prefix).")]
TaskArg = Annotated[str, typer.Argument(help="The task's id, as `slmcode board` shows it.")]
TitleOpt = Annotated[str | None, typer.Option("--title", help="What the task does, in a few words.")]
DescriptionOpt = Annotated[str | None, typer.Option("--description", help="What to do, in detail.")]
FileOpt = Annotated[list[str] | None, typer.Option("--file", help="A focus file (repeat for more).")]
CriterionOpt = Annotated[list[str] | None, typer.Option("--criterion", help="What must hold when done (repeat).")]
CheckOpt = Annotated[list[str] | None, typer.Option("--check", help="A command that must exit 0 (repeat).")]
AfterOpt = Annotated[list[str] | None, typer.Option("--after", help="A task id it depends on (repeat).")]


def _fields(
    title: str | None,
    description: str | None,
    files: list[str] | None,
    criteria: list[str] | None,
    checks: list[str] | None,
    after: list[str] | None,
) -> dict[str, Any]:
    """The fields an option names; a repeated option replaces the whole list."""
    from slmcode.state import Criterion  # state imports LangGraph (0.5 s): only the commands that need it pay

    fields: dict[str, Any] = {"title": title, "description": description, "focus_files": files, "depends_on": after}
    if criteria is not None or checks is not None:
        fields["criteria"] = [Criterion(text=c) for c in criteria or []] + [
            Criterion(text=f"`{c}` exits 0", verify=c) for c in checks or []
        ]
    return {k: v for k, v in fields.items() if v is not None}


def _edit(run_id: str, workspace: Path, as_json: bool, change: Any) -> None:
    from slmcode.run_board import edit_plan, show_board, waiting_board

    current = [t for t in waiting_board(show_board(run_id, workspace)).tasks if t.status == "pending"]
    rows: list[dict[str, Any]] = change([{"id": t.id} for t in current])
    _show(edit_plan(run_id, workspace, rows), as_json)


def _show(done: Any, as_json: bool) -> None:
    if as_json:
        print_json(done.as_json())
    else:
        console.print(board_table(done))


@task_app.command("drop")
def drop(run_id: RunArg, task_id: TaskArg, workspace: WorkspaceOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Drop a task from the plan."""
    from slmcode.run_board import drop_task

    _show(drop_task(run_id, workspace, task_id), as_json)


@task_app.command("add")
def add(
    run_id: RunArg,
    title: Annotated[str, typer.Option("--title", help="What the task does.")],
    description: DescriptionOpt = None,
    files: FileOpt = None,
    criteria: CriterionOpt = None,
    checks: CheckOpt = None,
    after: AfterOpt = None,
    workspace: WorkspaceOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Add a task to the plan (without a criterion it takes the run's checked criteria)."""
    new = _fields(title, description, files, criteria, checks, after)
    _edit(run_id, workspace, as_json, lambda rows: [*rows, new])


@task_app.command("edit")
def edit(
    run_id: RunArg,
    task_id: TaskArg,
    title: TitleOpt = None,
    description: DescriptionOpt = None,
    files: FileOpt = None,
    criteria: CriterionOpt = None,
    checks: CheckOpt = None,
    after: AfterOpt = None,
    workspace: WorkspaceOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Change a task's title, description, focus files, criteria or dependencies (what is not named stays)."""
    changes = _fields(title, description, files, criteria, checks, after)
    _edit(
        run_id,
        workspace,
        as_json,
        lambda rows: (
            [{**r, **changes} if r["id"] == task_id else r for r in rows]
            + ([{"id": task_id}] if not any(r["id"] == task_id for r in rows) else [])
        ),
    )
