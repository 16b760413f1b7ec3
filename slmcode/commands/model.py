"""Commands about the model and its budget: config show, tokens, budget, doctor."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.table import Table

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
from slmcode.config import Settings
from slmcode.errors import SlmcodeError

if TYPE_CHECKING:
    from slmcode.compact.toolfit import FittedTools

app = typer.Typer()


config_app = typer.Typer(help="Settings.", no_args_is_help=True)
app.add_typer(config_app, name="config")


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


def _worker_room(settings: Settings, role: str, workspace: Path) -> FittedTools | None:
    """The tools and room a tool-using role's first request gets, as the worker computes them; None for others."""
    from slmcode.compact.toolfit import opening_room
    from slmcode.nodes.llm import TOOL_ROLES

    return opening_room(settings, role, workspace.resolve()) if role in TOOL_ROLES else None


@app.command()
def budget(
    model: ModelOpt = None,
    role: Annotated[str, typer.Option("--role", help="Role whose share applies.")] = "worker",
    workspace: WorkspaceOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Show the token budget arithmetic for a model and role."""
    from slmcode.packs.budget import compute_budget
    from slmcode.packs.profiles import resolve_profile

    settings = settings_for(workspace, model=model).settings
    profile = resolve_profile(settings.model, settings)
    result = compute_budget(settings, role, profile=profile)
    guess = profile.context_source == "default"
    room = _worker_room(settings, role, workspace)
    room_json = {"worker_room": room.as_dict()} if room else {}
    if as_json:
        print_json(result.as_dict() | room_json | {"profile": profile.context_source, "window_is_a_guess": guess})
        return
    console.print("\n".join(result.lines()), highlight=False)
    if room:
        console.print("\n".join(room.lines(result.prompt_limit)), highlight=False)
    console.print(f"profile used: {profile.context_source}", highlight=False)
    if guess:
        err_console.print(
            f"[yellow]warning:[/yellow] no profile, family or size matches model '{escape(settings.model)}': the "
            f"window of {profile.context_limit} tokens is a guess (profile used: default); set context_limit "
            "in .slmcode/config.yaml", highlight=False, soft_wrap=True)


@app.command()
def doctor(
    ctx: typer.Context,
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    workspace: WorkspaceOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Check the model server, its models, the resolved profile, the budget and the token counter."""
    from slmcode.providers.endpoint import require_reachable

    configured = settings_for(workspace, model=model, base_url=base_url).settings
    if configured.base_url:  # a server that is not there is said in a blink, before the heavy imports (~3 s)
        require_reachable(configured.base_url, configured.api_key)
    from slmcode.api import model_endpoint
    from slmcode.packs.budget import compute_budget
    from slmcode.packs.profiles import resolve_profile
    from slmcode.packs.tokens import default_counter
    from slmcode.providers.endpoint import ollama_num_ctx, probe_endpoint
    from slmcode.providers.factory import bind_role
    from slmcode.tools.ossandbox import status as sandbox_status

    settings = configured
    # Without a base_url the embedded model is the server: start it for the check as a run would (~2 s).
    settings = ctx.with_resource(model_endpoint(settings))
    binding = bind_role(settings, "worker")
    info = probe_endpoint(binding.base_url, settings.api_key)
    profile = resolve_profile(binding.model, settings)
    worker_budget = compute_budget(settings, "worker", binding.model, profile)
    room = _worker_room(settings, "worker", workspace)
    assert room is not None
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
        "worker_room": room.as_dict(),
        "token_counter": default_counter().name,
        "sandbox": sandbox_status(),
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
    console.print(f"budget     worker pack {room.room.pack} tokens (room {room.room.room} after "
                  f"{room.schema_tokens} tokens of tool schemas), prompt limit {worker_budget.prompt_limit}")
    if room.dropped:
        console.print(f"tools      {', '.join(room.names)}; left out on this window: {', '.join(room.dropped)}")
    console.print(f"tokens     {default_counter().name}")
    console.print(f"sandbox    {escape(report['sandbox'])}")
    for warning in warnings:
        console.print(f"[yellow]warning:[/yellow] {warning}")
