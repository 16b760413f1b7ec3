"""A run's MCP sessions, kept open on a private event loop thread.

The graph's nodes are synchronous (LangGraph runs them in worker threads), and the MCP clients are async: the
hub owns one event loop on a daemon thread and every call crosses into it with run_coroutine_threadsafe. Each
server gets one long-lived task that opens its session, waits for the hub to close, and leaves its contexts
in the task that entered them (anyio's cancel scopes require it). Sessions are per run, not per call: a stdio
server starts once, when an agent that lists its tools first needs them, and ends with the run (close_run).
A server that fails to start is remembered as failed for the run, so each step does not wait for it again.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import threading
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool
from langchain_mcp_adapters.tools import load_mcp_tools
from mcp import ClientSession

from slmcode.config import McpServer, Settings
from slmcode.environment import Environment
from slmcode.mcp.servers import ServerUnavailable, open_session, where

CLOSE_SECONDS = 5.0


@dataclass
class _Live:
    session: ClientSession
    tools: list[BaseTool]
    stop: asyncio.Event


def _reason(exc: BaseException) -> str:
    """The first real cause inside anyio's exception groups, in one line."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = (str(exc).strip().splitlines() or [""])[0][:200]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class McpHub:
    """Sessions to the configured servers of one workspace, opened on demand."""

    def __init__(self, workspace: Path, settings: Settings, environment: Environment | None = None) -> None:
        self.workspace, self.settings = workspace, settings
        self.environment = environment  # where stdio servers run: the run's (None: the local one of the settings)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="slmcode-mcp", daemon=True)
        self._thread.start()
        self._lock = threading.Lock()
        self._live: dict[str, _Live] = {}
        self._failed: dict[str, str] = {}
        self._reported: set[str] = set()
        self._tasks: list[concurrent.futures.Future[Any]] = []
        self.closed = False

    @property
    def servers(self) -> dict[str, McpServer]:
        return self.settings.mcp_servers

    def tools(self, name: str) -> list[BaseTool]:
        """Server `name`'s tools as the adapter converts them (async tools); ServerUnavailable if it cannot
        start or answer, with the same reason on every later ask this run."""
        with self._lock:
            if name in self._live:
                return self._live[name].tools
            if name in self._failed:
                raise ServerUnavailable(self._failed[name])
            try:
                live = self._start(name)
            except ServerUnavailable as exc:
                self._failed[name] = str(exc)
                raise
            self._live[name] = live
            return live.tools

    def new_failures(self) -> list[tuple[str, str]]:
        """Servers that failed since the last ask, with why: each is reported once per run."""
        with self._lock:
            fresh = sorted(n for n in self._failed if n not in self._reported)
            self._reported.update(fresh)
            return [(n, self._failed[n]) for n in fresh]

    def _start(self, name: str) -> _Live:
        if self.closed:
            raise ServerUnavailable(f"MCP server {name}: the run's MCP sessions are closed")
        spec = self.servers[name]
        ready_box: dict[str, Any] = {}
        started = threading.Event()

        async def serve() -> None:
            stop = asyncio.Event()
            try:
                timeout = self.settings.mcp_timeout_seconds
                async with open_session(
                    self.workspace, name, spec, self.settings, timeout, self.environment
                ) as session:
                    tools = await load_mcp_tools(session, server_name=name)
                    ready_box["live"] = _Live(session, tools, stop)
                    started.set()
                    await stop.wait()
            except BaseException as exc:  # anything, so the waiting caller always hears back
                ready_box.setdefault("error", exc)
            finally:
                started.set()

        self._tasks.append(asyncio.run_coroutine_threadsafe(serve(), self._loop))
        if not started.wait(self.settings.mcp_timeout_seconds) and "live" not in ready_box:
            raise ServerUnavailable(
                f"MCP server {name} did not start within {self.settings.mcp_timeout_seconds:g} s"
                f"{where(self.workspace, name, spec)}"
            )
        if "live" in ready_box:
            return ready_box["live"]
        error = ready_box.get("error")
        if isinstance(error, ServerUnavailable):
            raise error
        raise ServerUnavailable(
            f"MCP server {name} is unreachable: {_reason(error) if error else 'no answer'}"
            f"{where(self.workspace, name, spec)}"
        )

    def call(self, name: str, tool: BaseTool, args: dict[str, Any], call_id: str) -> ToolMessage:
        """Run one adapter tool on its session; TimeoutError past mcp_timeout_seconds, the transport's own
        error when the server is gone."""
        coroutine = tool.ainvoke({"name": tool.name, "args": args, "id": call_id, "type": "tool_call"})
        future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        try:
            message = future.result(self.settings.mcp_timeout_seconds)
        except FutureTimeout:
            future.cancel()
            raise TimeoutError(
                f"MCP server {name} did not answer within {self.settings.mcp_timeout_seconds:g} s"
            ) from None
        assert isinstance(message, ToolMessage)
        return message

    def close(self) -> None:
        """End every session (a stdio server exits with its pipes) and the loop's thread."""
        with self._lock:
            if self.closed:
                return
            self.closed = True
            for live in self._live.values():
                self._loop.call_soon_threadsafe(live.stop.set)
            for task in self._tasks:
                try:
                    task.result(CLOSE_SECONDS)
                except Exception:  # a server that will not close is the OS's to reap (bwrap dies with us)
                    task.cancel()
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(CLOSE_SECONDS)

    def __enter__(self) -> McpHub:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_RUNS: dict[tuple[str, str], McpHub] = {}
_RUNS_LOCK = threading.Lock()


def hub_for(workspace: Path, run_id: str, settings: Settings, environment: Environment | None = None) -> McpHub:
    """The run's hub (one per run and workspace in this process), created on first use."""
    key = (str(workspace), run_id)
    with _RUNS_LOCK:
        hub = _RUNS.get(key)
        if hub is None or hub.closed:
            hub = _RUNS[key] = McpHub(workspace, settings, environment)
        return hub


def close_run(workspace: Path, run_id: str) -> None:
    """End the run's MCP sessions, if it opened any."""
    with _RUNS_LOCK:
        hub = _RUNS.pop((str(workspace), run_id), None)
    if hub is not None:
        hub.close()


@atexit.register
def _close_all() -> None:
    with _RUNS_LOCK:
        hubs = list(_RUNS.values())
        _RUNS.clear()
    for hub in hubs:
        hub.close()
