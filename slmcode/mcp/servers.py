"""Opening a session to one configured MCP server.

A stdio server is a local program the agent's tools will drive, so it runs behind the same wall as every
command: the run's Environment wraps its argv (Launcher.wrap; locally environment/ossandbox.py's bubblewrap
with the workspace writable only in permission `auto`, no network unless sandbox_network, an allowlisted
environment plus the variables its own `env:` names). Its stderr goes to .slmcode/mcp/NAME.log, not the user's
terminal. When its session ends, the environment's command() block closes: a `.git` or `.slmcode` it created
below the root is removed, as after every command: a planted repository's config would run a command of its
choosing the next time the user runs git there (the walls keep the existing ones read-only, but cannot forbid
new ones).
A streamable-HTTP server is already running; its URL was checked to be on loopback when the settings loaded
(config.McpServer).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path

import httpx
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from slmcode.config import McpServer, Settings
from slmcode.environment import Environment, LocalEnvironment
from slmcode.environment.protocol import Launcher
from slmcode.store.paths import MCP_DIR, state_path
from slmcode.tools.settings import ToolSettings

# The mcp library logs a stdout line that is not JSON-RPC (a server's banner) with a full traceback; it went to
# the user's terminal through logging's last resort. It belongs in the server's log, with its stderr.
STDIO_LOG = logging.getLogger("mcp.client.stdio")
STDIO_LOG.addHandler(logging.NullHandler())
STDIO_LOG.propagate = False


class ServerUnavailable(Exception):
    """One MCP server cannot be used; the message is one line naming it and why."""


def log_path(workspace: Path, name: str) -> Path:
    return state_path(workspace, MCP_DIR, f"{name}.log")


def stdio_parameters(workspace: Path, name: str, spec: McpServer, launcher: Launcher) -> StdioServerParameters:
    """How the client starts server `name` inside `launcher`'s wall, with the variables its `env:` sets (the
    user named them)."""
    assert spec.command is not None
    if launcher.unavailable:
        raise ServerUnavailable(f"MCP server {name}: no sandbox to start it in ({launcher.unavailable})")
    if launcher.which(spec.command) is None:
        raise ServerUnavailable(f"MCP server {name}: program '{spec.command}' not found on the sandbox's PATH")
    argv, env = launcher.wrap([spec.command, *spec.args], spec.env)
    return StdioServerParameters(command=argv[0], args=argv[1:], env=env, cwd=str(workspace))


@asynccontextmanager
async def open_session(
    workspace: Path,
    name: str,
    spec: McpServer,
    settings: Settings | ToolSettings,
    timeout: float,
    environment: Environment | None = None,
) -> AsyncIterator[ClientSession]:
    """An initialized session to server `name`; it closes (and a stdio server ends) when the block exits. A stdio
    server runs in `environment` (the run's; None: the local one these settings describe)."""
    wait = timedelta(seconds=timeout)
    if spec.url is not None:
        client = create_mcp_http_client(timeout=httpx.Timeout(timeout))
        async with (
            client,
            streamable_http_client(spec.url, http_client=client) as (read, write, _),
            ClientSession(read, write, read_timeout_seconds=wait) as session,
        ):
            await session.initialize()
            yield session
        return
    environment = environment or LocalEnvironment.from_settings(workspace, settings)
    log = log_path(workspace, name)
    log.parent.mkdir(parents=True, exist_ok=True)
    # The command() block closes once the server has exited (bwrap's PID namespace ends with it): nothing can
    # plant after its undo.
    with environment.command() as launcher:
        params = stdio_parameters(workspace, name, spec, launcher)
        with log.open("a", encoding="utf-8") as errlog:
            to_log = logging.StreamHandler(errlog)
            STDIO_LOG.addHandler(to_log)
            try:
                async with (
                    stdio_client(params, errlog=errlog) as (read, write),
                    ClientSession(read, write, read_timeout_seconds=wait) as session,
                ):
                    await session.initialize()
                    yield session
            finally:
                STDIO_LOG.removeHandler(to_log)
    if launcher.undone:  # not reached when the session raised: the undo ran all the same, only unlogged
        with log.open("a", encoding="utf-8") as errlog:
            errlog.write(f"slmcode removed what the server created: {', '.join(launcher.undone)}\n")


def where(workspace: Path, name: str, spec: McpServer) -> str:
    """Where a user finds out more about a failing stdio server: its log ("" for a URL)."""
    if spec.url is not None:
        return ""
    return f" (see {log_path(workspace, name).relative_to(workspace)})"
