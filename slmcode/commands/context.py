"""Commands that show what a model would see: the repo map, a role's pack, the composed team."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from slmcode.commands.common import (
    JsonOpt,
    ModelOpt,
    WorkspaceOpt,
    console,
    err_console,
    positive,
    print_json,
    settings_for,
)
from slmcode.commands.roles import RoleOpt, checked_role
from slmcode.errors import SlmcodeError

app = typer.Typer()


def existing_focus(workspace: Path, focus: list[str] | None) -> list[str]:
    """Each --focus as the workspace-relative file it names. A typo used to give, silently, a pack or map
    without the file; a path outside the workspace is refused as a tool would refuse it."""
    from slmcode.environment.containment import Refusal, resolve_path

    found = []
    for raw in focus or ():
        try:
            target = resolve_path(workspace, raw)
        except Refusal as exc:
            raise SlmcodeError(f"--focus: {str(exc).removeprefix('Error: ')}") from None
        if target.real.is_dir():
            raise SlmcodeError(f"--focus: {raw} is a folder; name a file")
        if not target.real.is_file():
            raise SlmcodeError(f"--focus: {raw}: no such file in {workspace.resolve()}")
        found.append(target.rel)
    return found


@app.command("map")
def repo_map(
    workspace: WorkspaceOpt = Path("."),
    query: Annotated[str, typer.Option("--query", help="Task or question the map should serve.")] = "",
    focus: Annotated[list[str] | None, typer.Option("--focus", help="File the map centres on (repeatable).")] = None,
    budget_tokens: Annotated[int | None, typer.Option("--budget", help="Token budget [default: repomap_tokens].")] = (
        None
    ),
    as_json: JsonOpt = False,
) -> None:
    """Print the repo map: the most relevant symbols of the workspace, fitted to a token budget."""
    from slmcode.repomap.build import load_index, render_map
    from slmcode.repomap.progress import progress_reporter

    settings = settings_for(workspace).settings
    budget = positive(budget_tokens, "--budget", "tokens") or settings.repomap_tokens
    focus = existing_focus(workspace, focus)
    with progress_reporter(err_console) as on_progress:
        index = load_index(workspace, settings, on_progress)
    result = render_map(index, query=query, focus_files=focus, budget_tokens=budget)
    if as_json:
        symbols = [
            {
                "path": r.symbol.path,
                "name": r.symbol.name,
                "kind": r.symbol.kind,
                "start": r.symbol.start,
                "end": r.symbol.end,
                "rank": round(r.rank, 8),
            }
            for r in result.symbols
        ]
        print_json({"files": list(result.files), "symbols": symbols, "tokens": result.tokens})
        return
    sys.stdout.write(result.text)
    notes = [f"{result.tokens}/{result.budget} tokens", f"{len(index.files)} files indexed"]
    notes += [f"{count} {reason}" for reason, count in index.skipped.items()]
    if index.parse_failures:
        notes.append(f"{index.parse_failures} failed to parse")
    err_console.print(f"[dim]{', '.join(notes)}[/dim]", highlight=False)


@app.command()
def pack(
    workspace: WorkspaceOpt = Path("."),
    query: Annotated[str | None, typer.Option("--query", help="What the task is about.")] = None,
    query_file: Annotated[Path | None, typer.Option("--query-file", help="Read the query from a file.")] = None,
    budget_tokens: Annotated[int | None, typer.Option("--budget", help="Tokens (default: the role's).")] = None,
    role: RoleOpt = "worker",
    focus: Annotated[list[str] | None, typer.Option("--focus", help="A focus file (repeatable).")] = None,
    model: ModelOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Render the context pack a role would receive for a query (its size as a run gives it)."""
    from slmcode.compact.toolfit import opening_room
    from slmcode.nodes.prompts import TOOL_CONTRACT
    from slmcode.packs.builder import build_pack
    from slmcode.packs.prompts import PREVIEW_SYSTEM_PROMPT
    from slmcode.tools.registry import TOOL_ROLES
    from slmcode.tools.settings import ToolSettings

    if (query is None) == (query_file is None):
        raise SlmcodeError("give exactly one of --query TEXT or --query-file FILE")
    if query_file is not None:
        try:
            query = query_file.read_text(encoding="utf-8")
        except OSError as exc:
            raise SlmcodeError(f"{query_file}: cannot read ({exc.strerror})") from None
    if not workspace.is_dir():
        raise SlmcodeError(f"{workspace}: no such folder")
    settings = settings_for(workspace, model=model).settings
    role = checked_role(role, settings, workspace)
    budget_tokens = positive(budget_tokens, "--budget", "tokens")
    focus = existing_focus(workspace, focus)
    contract = ""
    if role in TOOL_ROLES:  # the room and the tool contract the role's first request really gets
        fitted = opening_room(settings, ToolSettings.of(settings), role, workspace.resolve())
        budget_tokens = budget_tokens if budget_tokens is not None else fitted.room.pack
        contract = TOOL_CONTRACT
    result = build_pack(
        role,
        settings=settings,
        workspace=workspace,
        query=query or "",
        system_prompt=PREVIEW_SYSTEM_PROMPT.format(role=role),
        tool_contract=contract,
        focus_files=focus,
        budget_tokens=budget_tokens,
    )
    if as_json:
        print_json(result.as_json())
        return
    sys.stdout.write(result.render() + "\n")
    rows = ", ".join(f"{name} {tokens}" for name, tokens, _ in result.sections if tokens)
    err_console.print(f"[dim]{result.tokens}/{result.budget} tokens: {rows}[/dim]", highlight=False)
    for note in result.notes:
        err_console.print(f"[dim]note: {note}[/dim]", highlight=False)


@app.command()
def compose(
    task: Annotated[str, typer.Argument(help="The task, as you would give it to `slmcode run`.")],
    workspace: WorkspaceOpt = Path("."),
    model: ModelOpt = None,
    agent: Annotated[str | None, typer.Option("--agent", help="As `run --agent`: one specialist alone.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Show the phases, the team and each role's budget for this workspace's pack; no model is called."""
    from slmcode.blocks.compose import render_prompt, resolve_pipeline
    from slmcode.nodes.team import team_line
    from slmcode.providers.roles import team_budgets

    settings = settings_for(workspace, model=model, agent=agent).settings
    resolved = resolve_pipeline(workspace, settings)
    budgets = team_budgets(resolved.agents, settings)
    if as_json:
        data = resolved.as_dict() | {
            "task": task,
            "budgets": {k: b.as_dict() for k, b in budgets.items()},
            "team": team_line(settings),
        }
        print_json(data)
        return
    console.print(f"pack: [bold]{resolved.pack or 'none'}[/bold]  pipeline: {resolved.pipeline}  task: {task}")
    console.print("\n".join(f"  {line}" for line in resolved.pack_reasons), highlight=False)
    phases = Table("#", "phase", "agent", "when", "slot", "persist_to", "fail_mode")
    for number, spec in enumerate(resolved.phases, 1):
        phases.add_row(
            str(number), spec.name, spec.agent, spec.when, str(spec.slot or ""), spec.persist_to, spec.fail_mode
        )
    console.print(phases)
    for spec in resolved.phases:  # the built-in agents' prompts live in their nodes; only block prompts show
        if spec.prompt:
            shown = render_prompt(spec.prompt, {"query": task, "phase": spec.name}).strip()
            console.print(f"[bold]{spec.name}[/bold] prompt:\n{shown}", highlight=False)
    team = Table("agent", "role", "model", "share", "window", "available tokens")
    for agent_id, b in budgets.items():
        team.add_row(agent_id, b.role, b.model, f"{b.role_share:.2f}", str(b.window), str(b.available))
    console.print(team)
    console.print(team_line(settings), highlight=False)
    if resolved.quality:
        for kind, commands in resolved.quality.commands().items():
            console.print(f"{kind:8} {' && '.join(commands) or '-'}", highlight=False)
