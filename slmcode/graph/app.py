"""The graph for `langgraph dev` and the LangGraph server (see langgraph.json): a factory, so a workspace's
pipeline blocks (slots, `when: never`) shape the server's graph as they shape the CLI's.

The server brings its own checkpointer. Clients pass the run's settings as context:
{"workspace": "/path/to/repo", "overrides": {"base_url": "...", "model": "..."}}, and the input
{"run_id": ..., "query": ..., "workspace": ...}. The server calls the factory for every run (with the context)
and for reads of a thread's state or the graph's drawing (without): a read gets the graph the thread last ran
with, or the built-in one when this server process has not run it (after a restart, or never).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import threading
from collections import OrderedDict
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.graph.state import CompiledStateGraph
from langgraph_sdk.runtime import ServerRuntime

from slmcode.errors import SlmcodeError
from slmcode.graph.builder import build_graph
from slmcode.run_context import server_pipeline

LOG = logging.getLogger(__name__)
KEEP_GRAPHS = 32  # compiled graphs kept, one per workspace and pipeline; the least recently used goes first
KEEP_THREADS = 4096  # threads whose graph a later read finds


class ServerGraphs:
    """Compiled graphs by workspace and pipeline, and which one each thread ran with."""

    def __init__(self) -> None:
        self.builtin = build_graph()
        self._graphs: OrderedDict[tuple[str, str], CompiledStateGraph] = OrderedDict()
        self._threads: OrderedDict[str, CompiledStateGraph] = OrderedDict()
        self._lock = threading.Lock()

    def for_context(self, context: Any) -> CompiledStateGraph:
        """The graph a run with this context needs. A context the server policy refuses, or a pipeline that does
        not compose, gets the built-in graph: its first node then refuses the run in one line, as before."""
        workspace = _field(context, "workspace", ".")
        overrides = _field(context, "overrides", None) or {}
        try:
            root, phases = server_pipeline(workspace, overrides)
            key = (str(root), hashlib.sha256(repr(list(phases)).encode()).hexdigest())
            with self._lock:
                if key in self._graphs:
                    self._graphs.move_to_end(key)
                    return self._graphs[key]
            graph = build_graph(None, phases) if phases else self.builtin
        except (SlmcodeError, ValueError) as exc:
            LOG.info("slmcode: the built-in graph for this run (%s)", str(exc).splitlines()[0][:200])
            return self.builtin
        with self._lock:
            self._graphs[key] = graph
            while len(self._graphs) > KEEP_GRAPHS:
                self._graphs.popitem(last=False)
        return graph

    def remember(self, thread: str, graph: CompiledStateGraph) -> None:
        if not thread:
            return
        with self._lock:
            self._threads[thread] = graph
            self._threads.move_to_end(thread)
            while len(self._threads) > KEEP_THREADS:
                self._threads.popitem(last=False)

    def for_thread(self, thread: str) -> CompiledStateGraph:
        with self._lock:
            return self._threads.get(thread, self.builtin)


def _field(context: Any, name: str, default: Any) -> Any:
    if isinstance(context, dict):
        return context.get(name, default)
    return getattr(context, name, default)


GRAPHS = ServerGraphs()


async def make_graph(config: RunnableConfig, runtime: ServerRuntime) -> CompiledStateGraph:
    """The LangGraph server's graph factory (langgraph.json). Reading blocks is file I/O: done off the event
    loop, which `langgraph dev` guards against blocking calls."""
    thread = str((config.get("configurable") or {}).get("thread_id") or "")
    execution = runtime.execution_runtime
    if execution is None or execution.context is None:
        return GRAPHS.for_thread(thread)
    graph = await asyncio.to_thread(GRAPHS.for_context, execution.context)
    GRAPHS.remember(thread, graph)
    return graph
