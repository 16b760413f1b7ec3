"""The `slmcode` command line: parse, call the API or the packs, render with Rich.

Thin on purpose. A user's mistake raises SlmcodeError somewhere below; `main` prints it as one line and
exits with code 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from slmcode.config import LoadedSettings, load_settings
from slmcode.errors import SlmcodeError

app = typer.Typer(help="A coding-agent harness for small language models.", no_args_is_help=True)
config_app = typer.Typer(help="Settings.", no_args_is_help=True)
app.add_typer(config_app, name="config")

console = Console()
err_console = Console(stderr=True)

WorkspaceOpt = Annotated[Path, typer.Option("--workspace", "-w", help="The repository to work on.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
ModelOpt = Annotated[str | None, typer.Option("--model", help="Model name as the server knows it.")]
BaseUrlOpt = Annotated[str | None, typer.Option("--base-url", help="OpenAI-compatible endpoint, e.g. .../v1.")]


def print_json(data: Any) -> None:
    # Plain stdout, not Rich: JSON must stay machine-readable (no wrapping, no markup).
    sys.stdout.write(json.dumps(data, indent=2, default=str) + "\n")


def settings_for(workspace: Path, **flags: Any) -> LoadedSettings:
    return load_settings(workspace, flags={k: v for k, v in flags.items() if v is not None})


@config_app.command("show")
def config_show(workspace: WorkspaceOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Print the merged settings and where each value came from."""
    loaded = settings_for(workspace)
    values = loaded.settings.model_dump(mode="json")
    if as_json:
        print_json({"settings": values, "sources": loaded.sources})
        return
    table = Table("key", "value", "source")
    for key, value in values.items():
        shown = "***" if key == "api_key" and loaded.sources[key] != "default" else json.dumps(value)
        table.add_row(key, shown, loaded.sources[key])
    console.print(table)


@app.command()
def tokens(
    text: Annotated[str | None, typer.Argument(help="Text to count.")] = None,
    file: Annotated[Path | None, typer.Option("--file", help="Count a file instead.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Count tokens with the offline cl100k_base counter and say which counter is in use."""
    from slmcode.packs.tokens import default_counter

    if file is not None:
        try:
            text = file.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise SlmcodeError(f"{file}: cannot read ({exc.strerror})") from None
    if text is None:
        text = sys.stdin.read()
    counter = default_counter()
    count = counter.count(text)
    if as_json:
        print_json({"tokens": count, "counter": counter.name})
    else:
        console.print(f"{count} tokens  [dim]({counter.name})[/dim]")


@app.command()
def budget(
    model: ModelOpt = None,
    role: Annotated[str, typer.Option("--role", help="Role whose share applies.")] = "worker",
    workspace: WorkspaceOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Show the token budget arithmetic for a model and role."""
    from slmcode.packs.budget import compute_budget

    settings = settings_for(workspace, model=model).settings
    result = compute_budget(settings, role)
    if as_json:
        print_json(result.as_dict())
    else:
        console.print("\n".join(result.lines()), highlight=False)


@app.command()
def doctor(
    ctx: typer.Context,
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    workspace: WorkspaceOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Check the model server, its models, the resolved profile, the budget and the token counter."""
    from slmcode.api import model_endpoint
    from slmcode.packs.budget import compute_budget
    from slmcode.packs.profiles import resolve_profile
    from slmcode.packs.tokens import default_counter
    from slmcode.providers.endpoint import ollama_num_ctx, probe_endpoint
    from slmcode.providers.factory import bind_role

    settings = settings_for(workspace, model=model, base_url=base_url).settings
    # Without a base_url the embedded model is the server: start it for the check as a run would (~2 s).
    settings = ctx.with_resource(model_endpoint(settings))
    binding = bind_role(settings, "worker")
    info = probe_endpoint(binding.base_url, settings.api_key)
    profile = resolve_profile(binding.model, settings)
    worker_budget = compute_budget(settings, "worker", binding.model, profile)
    warnings: list[str] = []
    if info.models and binding.model not in info.models:
        warnings.append(f"the server does not list model '{binding.model}' (it has: {', '.join(info.models[:8])})")
    num_ctx = ollama_num_ctx(binding.base_url, binding.model) if info.server == "ollama" else None
    if num_ctx is not None and num_ctx < worker_budget.window:
        warnings.append(
            f"Ollama will run '{binding.model}' with num_ctx {num_ctx}, smaller than the profile's window "
            f"{worker_budget.window}: set num_ctx in a Modelfile or context_limit: {num_ctx} in .slmcode/config.yaml"
        )
    report = {
        "endpoint": info.base_url,
        "server": info.server,
        "models": info.models,
        "model": binding.model,
        "profile": {"context_limit": profile.context_limit, "context_source": profile.context_source,
                    "max_turns": profile.max_turns, "turns_source": profile.turns_source},
        "budget": worker_budget.as_dict(),
        "token_counter": default_counter().name,
        "ollama_num_ctx": num_ctx,
        "warnings": warnings,
    }
    if as_json:
        print_json(report)
        return
    embedded = " embedded llama.cpp server" if settings.server_dialect == "llama-cpp-python" else ""
    console.print(f"[green]ok[/green] {info.base_url} ({info.server}{embedded}), {len(info.models)} model(s)")
    console.print(f"model      {binding.model}")
    console.print(f"profile    context {profile.context_limit} ({profile.context_source}), "
                  f"max turns {profile.max_turns} ({profile.turns_source})")
    console.print(f"budget     worker {worker_budget.available} tokens of context, "
                  f"prompt limit {worker_budget.prompt_limit}")
    console.print(f"tokens     {default_counter().name}")
    for warning in warnings:
        console.print(f"[yellow]warning:[/yellow] {warning}")


@app.command()
def pack(
    workspace: WorkspaceOpt = Path("."),
    query: Annotated[str | None, typer.Option("--query", help="What the task is about.")] = None,
    query_file: Annotated[Path | None, typer.Option("--query-file", help="Read the query from a file.")] = None,
    budget_tokens: Annotated[int | None, typer.Option("--budget", min=1, help="Tokens (default: the role's).")] = None,
    role: Annotated[str, typer.Option("--role", help="Role whose pack to render.")] = "worker",
    focus: Annotated[list[str] | None, typer.Option("--focus", help="A focus file (repeatable).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Render the context pack a role would receive for a query."""
    from slmcode.packs.builder import build_pack
    from slmcode.packs.prompts import PREVIEW_SYSTEM_PROMPT

    if (query is None) == (query_file is None):
        raise SlmcodeError("give exactly one of --query TEXT or --query-file FILE")
    if query_file is not None:
        try:
            query = query_file.read_text(encoding="utf-8")
        except OSError as exc:
            raise SlmcodeError(f"{query_file}: cannot read ({exc.strerror})") from None
    if not workspace.is_dir():
        raise SlmcodeError(f"{workspace}: no such folder")
    settings = settings_for(workspace).settings
    result = build_pack(
        role,
        settings=settings,
        workspace=workspace,
        query=query or "",
        system_prompt=PREVIEW_SYSTEM_PROMPT.format(role=role),
        focus_files=focus or [],
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
) -> None:
    """Run the pipeline on a repository; exit code 0 only when every must criterion PASSED."""
    from slmcode import api

    flags = {"model": model, "base_url": base_url, "permission": permission}
    settings_for(workspace, **flags)  # a broken config is reported before anything starts
    result = _run_with_view(lambda on_event, answer: api.run(
        task, workspace, ephemeral=ephemeral, on_event=on_event, answer=answer, **flags), workspace, yes, as_json)
    raise typer.Exit(0 if result.ok else 1)


@app.command()
def resume(
    thread_id: Annotated[str | None, typer.Argument(help="Run id (default: the latest unfinished run).")] = None,
    workspace: WorkspaceOpt = Path("."),
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Answer every question automatically.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Continue a run from its last checkpoint."""
    from slmcode import api

    result = _run_with_view(lambda on_event, answer: api.resume(
        thread_id, workspace, on_event=on_event, answer=answer), workspace, yes, as_json)
    raise typer.Exit(0 if result.ok else 1)


def _announce(event: dict[str, Any]) -> None:
    if event.get("kind") in ("run_started", "run_resumed"):
        err_console.print(f"{event['kind'].replace('_', ' ')} {event['run_id']}", highlight=False)


def _run_with_view(start: Any, workspace: Path, yes: bool, as_json: bool) -> Any:
    from slmcode.api import auto_answer
    from slmcode.view import RunView, result_table, terminal_answerer

    timeout = settings_for(workspace).settings.escalate_timeout_seconds
    answer = auto_answer if yes else terminal_answerer(console, timeout)
    if as_json:  # the run id goes to stderr at the start, so stdout stays one JSON document
        result = start(lambda event: _announce(event), answer)
        print_json({"run_id": result.run_id, "status": result.status, "outcome": result.outcome, "ok": result.ok,
                    "tasks": [t.model_dump(mode="json") for t in result.tasks],
                    "qa": result.qa.model_dump(mode="json") if result.qa else None})
        return result
    with RunView(console) as view:
        result = start(view.on_event, answer)
    console.print(result_table(result))
    style = "green" if result.ok else "red"
    console.print(f"[{style}]{result.outcome}[/{style}]", highlight=False)
    console.print(f"[dim]run id {result.run_id}: `slmcode trace {result.run_id}` replays it[/dim]")
    return result


@app.command()
def status(workspace: WorkspaceOpt = Path("."), as_json: JsonOpt = False) -> None:
    """List the runs recorded in the workspace and their state, the latest first."""
    from dataclasses import asdict

    from slmcode.memory.trace import TraceStore
    from slmcode.memory.trace_view import runs_table, shown_status

    runs = TraceStore.for_workspace(workspace).runs()
    if as_json:
        print_json([asdict(r) | {"status": shown_status(r), "recorded_status": r.status} for r in runs])
    elif not runs:
        console.print(f"No runs recorded in {workspace.resolve()}.", highlight=False)
    else:
        console.print(runs_table(runs))


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
    from slmcode.memory.trace import TraceStore
    from slmcode.memory.trace_view import pack_header, timeline_table

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
    events = [e for e in store.timeline(run_id) if task is None or e.task_id == task]
    if as_json:
        print_json([asdict(e) for e in events])
    else:
        console.print(timeline_table(events))


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
    from slmcode.packs.repomap.build import load_index, render_map
    from slmcode.packs.repomap.progress import progress_reporter

    settings = settings_for(workspace).settings
    with progress_reporter(err_console) as on_progress:
        index = load_index(workspace, settings, on_progress)
    budget = budget_tokens if budget_tokens is not None else settings.repomap_tokens
    if budget <= 0:
        raise SlmcodeError(f"--budget: expected a positive number of tokens, got {budget}")
    result = render_map(index, query=query, focus_files=focus or (), budget_tokens=budget)
    if as_json:
        symbols = [
            {"path": r.symbol.path, "name": r.symbol.name, "kind": r.symbol.kind, "start": r.symbol.start,
             "end": r.symbol.end, "rank": round(r.rank, 8)}
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


blocks_app = typer.Typer(help="YAML building blocks: pipelines, agents, quality commands, language packs.",
                         no_args_is_help=True)
session_app = typer.Typer(help="Session snapshots of earlier runs.", no_args_is_help=True)
skills_app = typer.Typer(help="Skills: project and learned SKILL.md files.", no_args_is_help=True)
app.add_typer(blocks_app, name="blocks")
app.add_typer(session_app, name="session")
app.add_typer(skills_app, name="skills")
BlockIdArg = Annotated[str, typer.Argument(help="ID or KIND/ID.")]


@app.command()
def init(
    workspace: WorkspaceOpt = Path("."),
    pack_id: Annotated[str | None, typer.Option("--pack", help="Use this pack instead of detecting one.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Choose the language pack (detected, or --pack), write it to .slmcode/config.yaml and say why."""
    from slmcode.blocks.setup import init_workspace

    result = init_workspace(workspace, pack_id)
    if as_json:
        print_json({"pack": result.pack, "reasons": result.reasons, "config": str(result.config_path)})
        return
    was = f" (was {result.previous})" if result.previous and result.previous != result.pack else ""
    console.print(f"language_pack: [bold]{result.pack or 'none'}[/bold]{was} -> {result.config_path}")
    console.print("\n".join(f"  {line}" for line in result.reasons), highlight=False)


@blocks_app.command("list")
def blocks_list(workspace: WorkspaceOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Every visible block, with the layer it comes from (project > user > SLMCODE_BLOCKS_PATH > built-in)."""
    from slmcode.blocks.discovery import discover_blocks

    catalog = discover_blocks(workspace)
    rows = [(ref, b.layer, str(b.path), b.block.description) for ref, b in catalog.blocks.items()]
    if as_json:
        print_json([dict(zip(("ref", "layer", "path", "description"), row, strict=True)) for row in rows])
        return
    table = Table("block", "layer", "description")
    for ref, layer, _, description in rows:
        table.add_row(ref, layer, description)
    console.print(table)


@blocks_app.command("show")
def blocks_show(block_id: BlockIdArg, workspace: WorkspaceOpt = Path(".")) -> None:
    """Print a block as YAML, with the file it comes from and the files it hides."""
    from slmcode.blocks.discovery import discover_blocks
    from slmcode.blocks.setup import block_yaml

    matches = discover_blocks(workspace).find(block_id)
    if not matches:
        raise SlmcodeError(f"no block '{block_id}' (`slmcode blocks list` shows them)")
    for sourced in matches:
        hides = "".join(f"\n# hides {p}" for p in sourced.hides)
        sys.stdout.write(f"# {sourced.block.ref} from {sourced.layer} {sourced.path}{hides}\n")
        sys.stdout.write(block_yaml(sourced.block) + ("---\n" if sourced is not matches[-1] else ""))


@blocks_app.command("apply")
def blocks_apply(block_id: BlockIdArg, workspace: WorkspaceOpt = Path(".")) -> None:
    """Copy a block into .slmcode/blocks/ to edit it there; a pack also becomes the language_pack."""
    from slmcode.blocks.setup import apply_block

    console.print("\n".join(apply_block(workspace, block_id)), highlight=False)


@blocks_app.command("validate")
def blocks_validate(
    path: Annotated[Path | None, typer.Argument(help="A block file or folder; every layer when omitted.")] = None,
    workspace: WorkspaceOpt = Path("."),
) -> None:
    """Check block files against the blocks/v1 schema; exit 2 with one line per bad file."""
    from slmcode.blocks.loader import validate_path
    from slmcode.blocks.setup import validate_layers

    count, errors = validate_path(path) if path is not None else validate_layers(workspace)
    for error in errors:
        err_console.print(f"[red]error:[/red] {error}", highlight=False, soft_wrap=True)
    if errors:
        raise typer.Exit(2)
    console.print(f"{count} blocks valid")


@app.command()
def compose(
    task: Annotated[str, typer.Argument(help="The task, as you would give it to `slmcode run`.")],
    workspace: WorkspaceOpt = Path("."),
    model: ModelOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Show the phases, the team and each role's budget for this workspace's pack; no model is called."""
    from slmcode.blocks.compose import render_prompt, resolve_pipeline, team_budgets

    settings = settings_for(workspace, model=model).settings
    resolved = resolve_pipeline(workspace, settings)
    budgets = team_budgets(resolved, settings)
    if as_json:
        data = resolved.as_dict() | {"task": task, "budgets": {k: b.as_dict() for k, b in budgets.items()}}
        print_json(data)
        return
    console.print(f"pack: [bold]{resolved.pack or 'none'}[/bold]  pipeline: {resolved.pipeline}  task: {task}")
    console.print("\n".join(f"  {line}" for line in resolved.pack_reasons), highlight=False)
    phases = Table("#", "phase", "agent", "when", "slot", "persist_to", "fail_mode")
    for number, spec in enumerate(resolved.phases, 1):
        phases.add_row(str(number), spec.name, spec.agent, spec.when, spec.slot or "", spec.persist_to,
                       spec.fail_mode)
    console.print(phases)
    for spec in resolved.phases:  # the built-in agents' prompts live in their nodes; only block prompts show
        if spec.prompt:
            shown = render_prompt(spec.prompt, {"query": task, "phase": spec.name}).strip()
            console.print(f"[bold]{spec.name}[/bold] prompt:\n{shown}", highlight=False)
    team = Table("agent", "role", "model", "share", "window", "available tokens")
    for agent_id, b in budgets.items():
        team.add_row(agent_id, b.role, b.model, f"{b.role_share:.2f}", str(b.window), str(b.available))
    console.print(team)
    if resolved.quality:
        for kind, commands in resolved.quality.commands().items():
            console.print(f"{kind:8} {' && '.join(commands) or '-'}", highlight=False)


@app.command()
def context(
    workspace: WorkspaceOpt = Path("."),
    query: Annotated[str | None, typer.Option("--query", help="Also show the explore-or-reuse decision.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Print CONTEXT.md: the areas earlier runs touched and what each run did."""
    from slmcode.memory.explore import decide_explore
    from slmcode.memory.flywheel import read_memory

    snapshot = read_memory(workspace)
    decision = decide_explore(workspace, query) if query is not None else None
    if as_json:
        explore = {"explore": decision.explore, "reasons": decision.reasons} if decision else None
        print_json({"touched": snapshot.touched, "recent_runs": snapshot.recent_runs, "decision": explore})
        return
    sys.stdout.write(snapshot.context_text or "No CONTEXT.md yet: no run has finished here.\n")
    if decision:
        console.print(f"\n{'explore' if decision.explore else 'reuse'}: " + "; ".join(decision.reasons),
                      highlight=False)


@app.command()
def memory(workspace: WorkspaceOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Print MEMORY.md: lessons and pitfalls earlier runs learned."""
    from slmcode.memory.flywheel import read_memory

    snapshot = read_memory(workspace)
    if as_json:
        print_json({"lessons": snapshot.lessons, "skills": [s.name for s in snapshot.skills]})
        return
    sys.stdout.write(snapshot.memory_text or "No MEMORY.md yet: no run has learned anything here.\n")


@session_app.command("list")
def session_list(workspace: WorkspaceOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Session snapshots, newest first."""
    from slmcode.memory.sessions import list_sessions

    sessions = list_sessions(workspace)
    if as_json:
        print_json([s.model_dump(mode="json") for s in sessions])
        return
    table = Table("run id", "when", "task", "summary")
    for s in sessions:
        table.add_row(s.run_id, s.created_at.strftime("%Y-%m-%d %H:%M"), s.query[:50], s.summary[:50])
    console.print(table if sessions else "No sessions yet.")


@session_app.command("show")
def session_show(session_id: Annotated[str, typer.Argument(help="Run id or a unique prefix.")],
                 workspace: WorkspaceOpt = Path(".")) -> None:
    """One snapshot in full (resume the run with `slmcode resume THREAD_ID`)."""
    from slmcode.memory.sessions import show_session

    print_json(show_session(workspace, session_id).model_dump(mode="json"))


@skills_app.command("list")
def skills_list(workspace: WorkspaceOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Project and learned skills (.slmcode/skills/, .slmcode/skills/learned/)."""
    from slmcode.packs.skills import discover_skills

    skills = discover_skills(workspace)
    if as_json:
        print_json([{"name": s.name, "description": s.description, "path": s.path, "learned": s.learned}
                    for s in skills])
        return
    table = Table("skill", "learned", "description")
    for s in skills:
        table.add_row(s.name, "yes" if s.learned else "", s.description)
    console.print(table if skills else "No skills yet.")


@skills_app.command("show")
def skills_show(name: Annotated[str, typer.Argument(help="Skill name.")], workspace: WorkspaceOpt = Path(".")) -> None:
    """A skill's description and full body."""
    from slmcode.packs.skills import discover_skills, find_skill

    skill = find_skill(discover_skills(workspace), name)
    if skill is None:
        raise SlmcodeError(f"no skill '{name}' (`slmcode skills list` shows them)")
    sys.stdout.write(f"# {skill.name}  ({skill.path})\n{skill.description}\n\n{skill.body.strip()}\n")


def main() -> None:
    try:
        app()
    except SlmcodeError as exc:
        err_console.print(f"[red]error:[/red] {exc}", highlight=False, soft_wrap=True)
        raise SystemExit(exc.exit_code) from None
