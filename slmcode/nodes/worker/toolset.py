"""The tools one worker step offers and runs: the task's ToolContext over its workspace and the fitted list.

Both worker nodes build them from the conversation the step has already read, so a step reads its
conversation once and its tools are built once.
"""

from __future__ import annotations

import functools

from langchain_core.messages import BaseMessage
from langgraph.runtime import Runtime
from langgraph.types import interrupt

from slmcode.compact.toolfit import FittedTools, fit_tools
from slmcode.nodes.agent_fields import allowed_tools
from slmcode.nodes.attempts import workspace_for
from slmcode.nodes.fallback import seat_of
from slmcode.nodes.quality import gates_of, quality_of
from slmcode.nodes.solo import role_tools
from slmcode.nodes.transcript import files_read
from slmcode.nodes.worker.edit_format import edit_format
from slmcode.nodes.worker.mcp_tools import mcp_tools
from slmcode.packs.skills import discover_skills
from slmcode.run_context import RunContext, environment_of, roles_of, settings_of, workspace_of
from slmcode.state import WorkerInput
from slmcode.store.before_images import keep_before_image
from slmcode.tools.context import ToolContext
from slmcode.tools.toolset import make_tools


def _confirm(command: str) -> bool:
    answer = interrupt({"kind": "shell", "command": command, "question": f"Run `{command}`?"})
    return bool(answer) and str(answer).lower() not in ("n", "no", "false", "deny")


def tool_context(runtime: Runtime[RunContext], payload: WorkerInput, messages: list[BaseMessage]) -> ToolContext:
    """The task's view of the workspace; what it has read is read off the transcript, so it survives a resume."""
    workspace = workspace_for(runtime, payload)  # a best-of-N attempt's own copy (nodes/attempts.py)
    skills = {s.name: s.body for s in discover_skills(workspace)}
    return ToolContext(
        workspace=workspace,
        settings=settings_of(runtime),
        run_id=payload["run_id"],
        task_id=payload["task"].id,
        read_paths=files_read(messages),
        confirm=_confirm,
        skills=skills.get if skills else None,
        allowed_commands=quality_of(runtime).commands(),
        result_bytes=payload.get("result_bytes"),
        before_write=functools.partial(keep_before_image, workspace, payload["run_id"], payload["task"].id),
        write_guard=gates_of(runtime).write_guard,
        edit=edit_format(runtime, payload, messages),
        environment=environment_of(runtime) if workspace == workspace_of(runtime) else None,  # an attempt: its copy's
    )


def request_tools(runtime: Runtime[RunContext], payload: WorkerInput, ctx: ToolContext) -> FittedTools:
    """The tools `role`'s requests carry on its model (bound to `ctx`) and the room they
    leave; on a tiny window the least needed tools stay out so the opening pack holds the task and its code
    (compact.toolfit); an agent block's `tools` leaves out the ones it does not name."""
    role = payload["role"]
    seat = roles_of(runtime)[seat_of(payload)]  # its budget has the agent block's budget_share, when it sets one
    tools = make_tools(ctx) + mcp_tools(runtime, payload["run_id"], role)
    return fit_tools(seat.settings, seat.budget, role_tools(role, allowed_tools(runtime, role, tools)))
