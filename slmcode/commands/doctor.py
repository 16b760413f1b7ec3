"""`slmcode doctor`: the model server, its models, the profile and budget, the sandbox, the pack's programs,
and a readiness score; `--fix` applies the safe fixes (slmcode/readiness.py says which are safe)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from slmcode.commands.common import (
    BaseUrlOpt,
    JsonOpt,
    ModelOpt,
    WorkspaceOpt,
    console,
    print_json,
    settings_for,
    trust_status,
)
from slmcode.commands.model import _worker_room

if TYPE_CHECKING:
    from slmcode.config import Settings

app = typer.Typer()


@app.command()
def doctor(
    ctx: typer.Context,
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    workspace: WorkspaceOpt = Path("."),
    fix: Annotated[bool, typer.Option("--fix", help="Apply the safe fixes, then check again.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Check the model server, its models, the profile, the budget, the sandbox and the pack's programs."""
    from slmcode.providers.endpoint import require_reachable

    loaded = settings_for(workspace, model=model, base_url=base_url)
    configured = loaded.settings
    if configured.base_url:  # a server that is not there is said in a blink, before the heavy imports (~3 s)
        require_reachable(configured.base_url, configured.api_key)
    from slmcode.serving import model_endpoint

    # Without a base_url the embedded model is the server: start it for the check as a run would (~2 s).
    report = _diagnose(ctx.with_resource(model_endpoint(configured)), workspace)
    fixed = [c.fix.apply() for c in report["checks"] if not c.ok and c.fix] if fix else []
    if fixed:  # check again with what the fixes wrote
        settings = settings_for(workspace, model=model, base_url=base_url).settings
        report = _diagnose(ctx.with_resource(model_endpoint(settings)), workspace)
    checks = report.pop("checks")
    report["checks"] = [c.as_dict() for c in checks]
    report["fixed"] = fixed
    report["workspace_trust"] = {
        "status": loaded.trust,
        "ignored": loaded.ignored,
        "line": trust_status(workspace, loaded),
    }
    if as_json:
        print_json(report)
        return
    _render(report, checks, fixed, fix)


def _diagnose(settings: Settings, workspace: Path) -> dict[str, Any]:
    """Everything doctor reports, with the readiness checks under "checks"."""
    from slmcode import readiness
    from slmcode.blocks.compose import resolve_pipeline
    from slmcode.budget.tokens import default_counter
    from slmcode.environment.ossandbox import status as sandbox_status
    from slmcode.localize.semantic import status as semantic_status
    from slmcode.providers.endpoint import probe_endpoint
    from slmcode.providers.roles import RoleTable
    from slmcode.providers.server_window import probe_ollama

    worker = RoleTable(settings)["worker"]
    binding, profile, worker_budget = worker.binding, worker.profile, worker.budget
    info = probe_endpoint(binding.base_url, settings.api_key)
    room = _worker_room(settings, "worker", workspace)
    assert room is not None  # the worker uses tools
    # The same probe a run asks at its start, so doctor and run agree on what Ollama keeps (4,096 since 0.6).
    num_ctx = probe_ollama(binding.base_url, binding.model, settings.api_key) if info.server == "ollama" else None
    quality = resolve_pipeline(workspace, settings).quality
    commands = quality.commands() if quality else {}
    checks = [
        readiness.model_listed(binding.model, info.models, info.server),
        readiness.window(binding.model, worker_budget.window, num_ctx, workspace.resolve()),
        readiness.sandbox(sandbox_status()),
        readiness.token_counter(default_counter().name),
        *(readiness.program(kind, commands[kind][0], workspace) for kind in ("test", "lint") if commands.get(kind)),
    ]
    passed, total = readiness.readiness(checks)
    return {
        "endpoint": info.base_url,
        "server": info.server,
        "models": info.models,
        "model": binding.model,
        "profile": {
            "context_limit": profile.context_limit,
            "context_source": profile.context_source,
            "max_turns": profile.max_turns,
            "turns_source": profile.turns_source,
        },
        "budget": worker_budget.as_dict() | {"prompt_limit": worker_budget.prompt_limit},
        "worker_room": room.as_dict(),
        "token_counter": default_counter().name,
        "sandbox": sandbox_status(),
        "semantic": semantic_status(settings.retrieval_semantic),
        "ollama_num_ctx": num_ctx,
        "embedded": settings.server_dialect == "llama-cpp-python",
        "warnings": [c.detail for c in checks if not c.ok],
        "readiness": {"passed": passed, "total": total},
        "checks": checks,
    }


def _render(report: dict[str, Any], checks: list[Any], fixed: list[str], asked_fix: bool) -> None:
    embedded = " embedded llama.cpp server" if report["embedded"] else ""
    console.print(
        f"[green]ok[/green] {report['endpoint']} ({report['server']}{embedded}), {len(report['models'])} model(s)"
    )
    profile, room, budget = report["profile"], report["worker_room"], report["budget"]
    console.print(f"model      {report['model']}")
    console.print(
        f"profile    context {profile['context_limit']} ({profile['context_source']}), "
        f"max turns {profile['max_turns']} ({profile['turns_source']})"
    )
    console.print(
        f"budget     worker pack {room['pack']} tokens (room {room['room']} after "
        f"{room['tool_schemas']} tokens of tool schemas), prompt limit {budget['prompt_limit']}"
    )
    if room["tools_dropped"]:
        console.print(
            f"tools      {', '.join(room['tools'])}; left out on this window: {', '.join(room['tools_dropped'])}"
        )
    console.print(f"tokens     {report['token_counter']}")
    console.print(f"sandbox    {escape(report['sandbox'])}")
    console.print(f"semantic   {escape(report['semantic'])}", highlight=False)
    console.print(escape(report["workspace_trust"]["line"]), highlight=False, soft_wrap=True)
    for line in fixed:
        console.print(f"[green]fixed:[/green] {escape(line)}", highlight=False)
    for check in checks:
        if not check.ok:
            console.print(f"[yellow]warning:[/yellow] {escape(check.detail)}", highlight=False)
            console.print(f"  fix: {escape(check.advice)}", highlight=False)
            if check.fix and not asked_fix:
                console.print(f"  `slmcode doctor --fix` would {escape(check.fix.describe)}", highlight=False)
    passed, total = report["readiness"]["passed"], report["readiness"]["total"]
    colour = "green" if passed == total else "yellow"
    console.print(f"readiness  [{colour}]{passed}/{total}[/{colour}] checks pass")
