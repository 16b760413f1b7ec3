"""`slmcode mcp list`: the MCP servers of .slmcode/config.yaml, their tools, and each schema's token cost."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import typer
from rich.markup import escape

from slmcode.commands.common import JsonOpt, WorkspaceOpt, console, print_json, settings_for

app = typer.Typer()
mcp_app = typer.Typer(help="MCP servers and the tools they offer agents.", no_args_is_help=True)
app.add_typer(mcp_app, name="mcp")


@mcp_app.command("list")
def list_mcp(workspace: WorkspaceOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Start (or reach) each configured server, list its tools and what each tool's schema costs a request."""
    from slmcode.mcp.listing import list_servers

    settings = settings_for(workspace).settings
    listings = list_servers(workspace.resolve(), settings)
    if as_json:
        print_json([asdict(listing) for listing in listings])
        return
    if not listings:
        console.print("No MCP servers configured (mcp_servers: in .slmcode/config.yaml).")
        return
    for listing in listings:
        console.print(f"[bold]{listing.name}[/bold]  {escape(listing.transport)}", highlight=False, soft_wrap=True)
        if listing.problem is not None:
            console.print(f"  [red]unreachable[/red]: {escape(listing.problem)}", highlight=False, soft_wrap=True)
            continue
        width = max((len(t.name) for t in listing.tools), default=0)
        for tool in listing.tools:
            console.print(
                f"  {tool.name:<{width}}  {tool.tokens:>5} tokens  {escape(tool.description[:80])}",
                highlight=False,
                soft_wrap=True,
            )
        total = sum(t.tokens for t in listing.tools)
        console.print(
            f"  {len(listing.tools)} tools, {total} tokens if all were offered; an agent gets at most "
            f"mcp_max_tools = {settings.mcp_max_tools}",
            highlight=False,
            soft_wrap=True,
        )
    if any(listing.problem for listing in listings):
        raise typer.Exit(code=2)  # a script checking the servers must notice
