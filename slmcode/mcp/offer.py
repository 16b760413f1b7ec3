"""Which MCP tools an agent gets, under which names, as synchronous tools the worker's tool step can run.

Names: `mcp__SERVER__TOOL` (characters a chat API refuses in a tool name become `_`, at most 64). An agent
block's `tools:` lists them by name or by pattern (`mcp__docs__*`); only listed tools are offered, in the
order the list names them, at most `cap` (each schema rides along with every request: a small window cannot
carry forty). Only the servers a pattern can match are started.

Every failure a call can meet comes back as a result starting with "Error:" (so the model sees a tool error
and the pair stays whole): arguments that break the tool's JSON schema, the server's own error, a timeout, a
server that went away.
"""

from __future__ import annotations

import fnmatch
import json
import re
from collections.abc import Sequence
from typing import Any

import jsonschema
from langchain_core.tools import BaseTool, StructuredTool

from slmcode.mcp.hub import McpHub
from slmcode.mcp.servers import ServerUnavailable
from slmcode.tools.registry import MCP_PREFIX

PREFIX = MCP_PREFIX
NAME_LIMIT = 64
DESCRIPTION_LIMIT = 300  # a server's long manual would cost every request its tokens
UNSAFE_NAME = re.compile(r"[^A-Za-z0-9_-]")


def tool_name(server: str, tool: str) -> str:
    return f"{PREFIX}{server}__{UNSAFE_NAME.sub('_', tool)}"[:NAME_LIMIT]


def is_mcp(name: str) -> bool:
    return name.startswith(PREFIX)


def servers_named(patterns: Sequence[str], servers: Sequence[str]) -> list[str]:
    """The configured servers some MCP entry of `patterns` can reach (sorted)."""
    wanted = [p.removeprefix(PREFIX).split("__", 1)[0] for p in patterns if is_mcp(p)]
    return sorted(s for s in servers if any(fnmatch.fnmatchcase(s, w) for w in wanted))


def select(patterns: Sequence[str], names: Sequence[str], cap: int) -> list[str]:
    """The names `patterns` lists, in the list's order (a pattern's matches sorted), at most `cap`."""
    chosen: list[str] = []
    for pattern in (p for p in patterns if is_mcp(p)):
        for name in sorted(n for n in names if fnmatch.fnmatchcase(n, pattern)):
            if name not in chosen:
                chosen.append(name)
    return chosen[:cap]


def _description(tool: BaseTool) -> str:
    text = " ".join((tool.description or "").split())
    return text if len(text) <= DESCRIPTION_LIMIT else text[: DESCRIPTION_LIMIT - 3].rstrip() + "..."


def result_text(content: Any) -> str:
    """A tool message's content blocks as the text a small model reads; other blocks are named, not dumped."""
    if isinstance(content, str):
        return content
    parts = []
    for block in content if isinstance(content, list) else [content]:
        if isinstance(block, dict) and block.get("type") == "text":
            parts.append(str(block.get("text", "")))
        elif isinstance(block, dict):
            parts.append(f"[{block.get('type', 'content')} block: {block.get('mime_type', 'no type')}]")
        else:
            parts.append(str(block))
    return "\n".join(parts)


def _schema_problem(schema: Any, args: dict[str, Any]) -> str | None:
    if not isinstance(schema, dict):
        return None
    try:
        jsonschema.validate(args, schema)
    except jsonschema.ValidationError as exc:
        where = ".".join(str(p) for p in exc.absolute_path) or "arguments"
        return f"{where}: {exc.message}"
    except jsonschema.SchemaError:
        return None  # the server's schema is broken: let the server judge the call
    return None


def wrap(hub: McpHub, server: str, tool: BaseTool) -> BaseTool:
    """`tool` as a synchronous tool named mcp__SERVER__TOOL that answers every call with text."""
    name = tool_name(server, tool.name)

    def call(**args: Any) -> str:
        problem = _schema_problem(tool.args_schema, args)
        if problem is not None:
            schema = tool.args_schema if isinstance(tool.args_schema, dict) else {}
            expected = json.dumps(schema.get("properties", {}), sort_keys=True)
            return f"Error: bad arguments for {name}: {problem}. Expected arguments: {expected}"
        try:
            message = hub.call(server, tool, args, call_id=name)
        except TimeoutError as exc:
            return f"Error: {exc}"
        except Exception as exc:  # the transport broke (server exited, connection lost): the model hears why
            return f"Error: MCP server {server} failed: {type(exc).__name__}: {exc}"
        text = result_text(message.content)
        return f"Error: {text}" if message.status == "error" and not text.startswith("Error:") else text

    return StructuredTool.from_function(
        func=call, name=name, description=_description(tool), args_schema=tool.args_schema
    )


def server_tools(hub: McpHub, server: str) -> list[BaseTool]:
    """Every tool of one server, wrapped and named; ServerUnavailable when it cannot start."""
    return [wrap(hub, server, tool) for tool in hub.tools(server)]


def offered(hub: McpHub, patterns: Sequence[str], cap: int) -> list[BaseTool]:
    """The MCP tools an agent listing `patterns` gets, at most `cap`; a server that cannot start offers none
    (hub.new_failures says which, once)."""
    found: dict[str, BaseTool] = {}
    for server in servers_named(patterns, list(hub.servers)):
        try:
            found.update((t.name, t) for t in server_tools(hub, server))
        except ServerUnavailable:
            continue
    return [found[name] for name in select(patterns, list(found), cap)]
