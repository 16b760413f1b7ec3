"""The MCP tools a worker-type phase offers: those its agent block lists, from the run's MCP sessions
(slmcode.mcp), at most the agent's mcp_max_tools (else the setting). A server that cannot start offers nothing
and is reported once in the trace ("mcp_unavailable"); the run goes on with the other tools."""

from __future__ import annotations

from langchain_core.tools import BaseTool
from langgraph.runtime import Runtime

from slmcode.mcp.hub import hub_for
from slmcode.mcp.offer import is_mcp, offered
from slmcode.nodes.agent_fields import agent_for
from slmcode.run_context import RunContext, emit, environment_of, settings_of, workspace_of


def mcp_tools(runtime: Runtime[RunContext], run_id: str, phase: str) -> list[BaseTool]:
    settings = settings_of(runtime)
    agent = agent_for(runtime, phase)
    patterns = [t for t in (agent.tools or []) if is_mcp(t)] if agent is not None else []
    if not settings.mcp_servers or not patterns:
        return []
    assert agent is not None
    cap = agent.mcp_max_tools if agent.mcp_max_tools is not None else settings.mcp_max_tools
    hub = hub_for(workspace_of(runtime), run_id, settings, environment_of(runtime))
    tools = offered(hub, patterns, cap)
    for server, reason in hub.new_failures():
        emit(runtime, run_id, "mcp_unavailable", role=phase, server=server, message=reason)
    return tools
