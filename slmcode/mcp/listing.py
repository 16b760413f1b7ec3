"""What `slmcode mcp list` shows: each configured server, its tools and what each schema costs a request."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

from slmcode.budget.tokens import count_tokens
from slmcode.config import Settings
from slmcode.mcp.hub import McpHub
from slmcode.mcp.offer import server_tools
from slmcode.mcp.servers import ServerUnavailable


@dataclass(frozen=True)
class ToolCost:
    name: str
    tokens: int  # the schema as it rides along with every request that offers it
    description: str


@dataclass(frozen=True)
class ServerListing:
    name: str
    transport: str  # "stdio: COMMAND ARGS" or the URL
    tools: list[ToolCost] = field(default_factory=list)
    problem: str | None = None  # why it could not be listed, in one line


def schema_cost(tool: BaseTool) -> int:
    """The tokens one tool's schema adds to a request, counted as compact.room counts a tool set."""
    return count_tokens(json.dumps([convert_to_openai_tool(tool)], sort_keys=True))


def transport(settings: Settings, name: str) -> str:
    spec = settings.mcp_servers[name]
    return spec.url if spec.url is not None else "stdio: " + " ".join([spec.command or "", *spec.args])


def list_servers(workspace: Path, settings: Settings) -> list[ServerListing]:
    """Each server in name order, started (or reached) once; a failing one is a problem line, not an error."""
    listings = []
    with McpHub(workspace, settings) as hub:
        for name in sorted(settings.mcp_servers):
            try:
                tools = server_tools(hub, name)
            except ServerUnavailable as exc:
                listings.append(ServerListing(name, transport(settings, name), problem=str(exc)))
                continue
            costs = [ToolCost(t.name, schema_cost(t), t.description) for t in sorted(tools, key=lambda t: t.name)]
            listings.append(ServerListing(name, transport(settings, name), costs))
    return listings
