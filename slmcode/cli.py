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
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    workspace: WorkspaceOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Check the model server, its models, the resolved profile, the budget and the token counter."""
    from slmcode.packs.budget import compute_budget
    from slmcode.packs.profiles import resolve_profile
    from slmcode.packs.tokens import default_counter
    from slmcode.providers.endpoint import ollama_num_ctx, probe_endpoint
    from slmcode.providers.factory import bind_role

    settings = settings_for(workspace, model=model, base_url=base_url).settings
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
    console.print(f"[green]ok[/green] {info.base_url} ({info.server}), {len(info.models)} model(s)")
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


def main() -> None:
    try:
        app()
    except SlmcodeError as exc:
        err_console.print(f"[red]error:[/red] {exc}", highlight=False, soft_wrap=True)
        raise SystemExit(exc.exit_code) from None
