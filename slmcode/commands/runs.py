"""Commands that run the pipeline and look back at runs: run, resume, status, trace."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from slmcode.commands.common import (
    BaseUrlOpt,
    JsonOpt,
    ModelOpt,
    WorkspaceOpt,
    console,
    err_console,
    print_json,
    settings_for,
)
from slmcode.errors import SlmcodeError

app = typer.Typer()


PermissionOpt = Annotated[
    str | None, typer.Option("--permission", help="auto (write), dry-run (record only), review (stage patches).")
]


@app.command()
def run(
    task: Annotated[str, typer.Argument(help="What to do, in plain words.")],
    workspace: WorkspaceOpt = Path("."),
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    permission: PermissionOpt = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Answer every question automatically.")] = False,
    ephemeral: Annotated[bool, typer.Option("--ephemeral", help="Keep checkpoints in memory only.")] = False,
    as_json: JsonOpt = False,
    git_mode: Annotated[
        str | None,
        typer.Option(
            "--git-mode",
            help="off, branch (one commit per task on slmcode/RUN_ID; `slmcode accept` merges it) or "
            "in-place (commits on your branch).",
        ),
    ] = None,
    in_place: Annotated[bool, typer.Option("--in-place", help="Same as --git-mode in-place.")] = False,
    stash: Annotated[
        bool,
        typer.Option("--stash", help="Git run on a dirty tree: stash your changes for the run and restore them after."),
    ] = False,
    approve: Annotated[
        str | None,
        typer.Option(
            "--approve", help="plan: stop after planning for your approval (`slmcode board`, `slmcode task`; exit 4)."
        ),
    ] = None,
    agent: Annotated[
        str | None,
        typer.Option(
            "--agent", help="One specialist alone, no planning: explorer (answers), planner, worker, reviewer."
        ),
    ] = None,
) -> None:
    """Run the pipeline on a repository; exit code 0 only when every must criterion PASSED."""
    from slmcode import api

    flags: dict[str, Any] = {
        "model": model,
        "base_url": base_url,
        "permission": permission,
        "git_mode": "in-place" if in_place else git_mode,
        "git_stash": stash or None,
        "approve": approve,
        "agent": agent,
    }
    # Read once: a broken config is reported before anything starts, and the run goes on with these settings.
    loaded = settings_for(workspace, **flags)
    result = _run_with_view(
        lambda on_event, answer: api.run(
            task, workspace, ephemeral=ephemeral, on_event=on_event, answer=answer, loaded=loaded, **flags
        ),
        workspace,
        yes,
        as_json,
        loaded.settings.escalate_timeout_seconds,
        pause_at_plan=True,
    )
    raise typer.Exit(0 if result.ok else 1)


@app.command()
def resume(
    thread_id: Annotated[str | None, typer.Argument(help="Run id (default: the latest unfinished run).")] = None,
    workspace: WorkspaceOpt = Path("."),
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Answer every question automatically.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Continue a run from its last checkpoint; --base-url and --model move the rest of it (the plan stays)."""
    from slmcode import api

    flags: dict[str, Any] = {"model": model, "base_url": base_url}
    # A broken config is reported before anything starts (the run itself adds the overrides it started with).
    loaded = settings_for(workspace, **flags)
    result = _run_with_view(
        lambda on_event, answer: api.resume(thread_id, workspace, on_event=on_event, answer=answer, **flags),
        workspace,
        yes,
        as_json,
        loaded.settings.escalate_timeout_seconds,
    )
    raise typer.Exit(0 if result.ok else 1)


def _announce(event: dict[str, Any]) -> None:
    if event.get("kind") in ("run_started", "run_resumed"):
        err_console.print(f"{event['kind'].replace('_', ' ')} {event['run_id']}", highlight=False)


def _run_with_view(
    start: Any, workspace: Path, yes: bool, as_json: bool, timeout: float, pause_at_plan: bool = False
) -> Any:
    from slmcode.commands.board import EXIT_WAITING, PlanPaused, show_paused
    from slmcode.commands.interrupt import two_stage_interrupt

    try:
        with two_stage_interrupt():
            return _watched(start, workspace, yes, as_json, timeout, pause_at_plan and not yes)
    except PlanPaused as paused:  # the run waits, checkpointed, for the user to look at the plan
        show_paused(paused.run_id, workspace, as_json)
        raise typer.Exit(EXIT_WAITING) from None


def _watched(start: Any, workspace: Path, yes: bool, as_json: bool, timeout: float, pause_at_plan: bool) -> Any:
    """`timeout`: how long a question waits for the user (escalate_timeout_seconds)."""
    from slmcode.api import auto_answer
    from slmcode.commands.board import plan_answerer
    from slmcode.terminal import RunView, result_table, terminal_answerer

    answer = plan_answerer(auto_answer if yes else terminal_answerer(console, timeout), pause=pause_at_plan)
    if as_json:  # the run id goes to stderr at the start, so stdout stays one JSON document
        result = start(lambda event: _announce(event), answer)
        print_json(
            {
                "run_id": result.run_id,
                "status": result.status,
                "outcome": result.outcome,
                "ok": result.ok,
                "tasks": [t.model_dump(mode="json") for t in result.tasks],
                "qa": result.qa.model_dump(mode="json") if result.qa else None,
                "git_notes": getattr(result, "git_notes", []),
                "answer": result.answer,
            }
        )
        return result
    with RunView(console) as view:
        result = start(view.on_event, view.asking(answer))
    console.print(result_table(result))
    if result.answer:  # a single specialist's answer (--agent)
        console.print(result.answer, markup=False, highlight=False)
    style = "green" if result.ok else "red"
    console.print(f"[{style}]{result.outcome}[/{style}]", highlight=False)
    for note in getattr(result, "git_notes", []):
        console.print(f"git: {note}", highlight=False, soft_wrap=True)
    console.print(f"[dim]run id {result.run_id}: `slmcode trace {result.run_id}` replays it[/dim]")
    if not result.ok:  # what a failed or partial run left behind, and the way back
        from slmcode.commands.aftermath import undo_lines

        for line in undo_lines(workspace, result.run_id):
            console.print(line, markup=False, highlight=False, soft_wrap=True)
    return result


@app.command()
def status(workspace: WorkspaceOpt = Path("."), as_json: JsonOpt = False) -> None:
    """List the runs recorded in the workspace and their state, the latest first."""
    from dataclasses import asdict

    from slmcode.store.trace import TraceStore
    from slmcode.store.trace_view import runs_table, shown_status

    runs = TraceStore.for_workspace(workspace).runs()
    if as_json:
        print_json([asdict(r) | {"status": shown_status(r), "recorded_status": r.status} for r in runs])
    elif not runs:
        console.print(f"No runs recorded in {workspace.resolve()}.", highlight=False)
    else:
        console.print(runs_table(runs, console.width))


@app.command()
def trace(
    run_id: Annotated[str | None, typer.Argument(help="Run id or a unique prefix (default: the latest run).")] = None,
    workspace: WorkspaceOpt = Path("."),
    as_json: JsonOpt = False,
    role: Annotated[str | None, typer.Option("--pack", help="Show the last pack this role received.")] = None,
    task: Annotated[str | None, typer.Option("--task", help="Only this task's events, or its pack.")] = None,
) -> None:
    """Replay a run's timeline, or show the pack a specialist received."""
    from dataclasses import asdict

    from slmcode.errors import RunNotFoundError
    from slmcode.store.trace import TraceStore
    from slmcode.store.trace_view import pack_header, timeline_table

    store = TraceStore.for_workspace(workspace)
    if run_id is None:
        runs = store.runs()
        if not runs:
            raise RunNotFoundError(f"no runs recorded in {workspace.resolve()}")
        run_id = runs[0].run_id
    run_id = store.run(run_id).run_id
    if role is not None:
        found = store.pack(run_id, role, task)
        if found is None:
            roles = ", ".join(store.pack_roles(run_id)) or "none"
            which = f"role '{role}'" + (f" and task '{task}'" if task else "")
            raise SlmcodeError(f"run {run_id} has no pack for {which} (roles with packs: {roles})")
        if as_json:
            print_json(asdict(found))
        else:
            console.print(pack_header(found))
            console.print(found.text, markup=False, highlight=False)
        return
    timeline = store.timeline(run_id)
    events = [e for e in timeline if task is None or e.task_id == task]
    if task is not None and not events:  # a typo in the id printed an empty table, as if the task did nothing
        tasks = ", ".join(sorted({e.task_id for e in timeline if e.task_id})) or "none"
        raise SlmcodeError(f"run {run_id} has no events for task '{task}' (tasks with events: {tasks})")
    if as_json:
        print_json([asdict(e) for e in events])
    else:
        console.print(timeline_table(events))
