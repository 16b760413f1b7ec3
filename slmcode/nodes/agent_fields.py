"""What an agent block says about the phase it fills: the tools its requests may carry (`tools`) and its share
of the window (`budget_share`, which replaces its role's context_role_budget share, as `slmcode compose`
shows; applied by the run's role table, providers.roles). Unset fields leave the node's own tool set and the
configured share."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.tools import BaseTool
from langgraph.runtime import Runtime

from slmcode.blocks.schema import AgentBlock
from slmcode.run_context import RunContext
from slmcode.tools.registry import MCP_PREFIX


def agent_for(runtime: Runtime[RunContext], phase: str) -> AgentBlock | None:
    """The agent block filling `phase` in this run's pipeline (None when no phase has that name)."""
    resolved = runtime.context.resolved_pipeline()
    spec = next((p for p in resolved.phases if p.name == phase), None)
    return resolved.agents.get(spec.agent) if spec is not None else None


def allowed_tools(runtime: Runtime[RunContext], phase: str, tools: Sequence[BaseTool]) -> list[BaseTool]:
    """`tools` limited to the phase agent's list: a tool it does not name is neither offered nor run. MCP
    entries (`mcp__...`, chosen by nodes.worker.mcp_tools) add tools and limit nothing: a list naming only MCP tools
    keeps the workspace tools whole."""
    agent = agent_for(runtime, phase)
    own = [name for name in agent.tools or [] if not name.startswith(MCP_PREFIX)] if agent is not None else []
    if agent is None or agent.tools is None or not own:
        return list(tools)
    return [t for t in tools if t.name.startswith(MCP_PREFIX) or t.name in set(own)]
