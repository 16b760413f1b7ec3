"""The smallest window a run can work in. Every request of a role carries a part no budget shrinks: its system
prompt and its answer's contract (the JSON schema a structured role answers with; the tool schemas a tool role
keeps when the least needed tools are left out on a tiny window), beside a few tokens of instruction and task.
A server that keeps less than that part and the response reserve cannot take one request of the role: the run
would stop at the role's first request with a budget error that names neither the server nor its window.

So the run's server is checked at start (one line naming the server, its window and the smallest that works),
and a fallback's server before a task is raised to it (a fallback that cannot take the task is skipped, saying
why)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel

from slmcode.budget.compute import compute_budget
from slmcode.budget.room import schema_tokens
from slmcode.budget.tokens import MESSAGE_OVERHEAD_TOKENS, count_tokens
from slmcode.compact.toolfit import role_tools
from slmcode.config import Settings
from slmcode.nodes.prompts import SYSTEM
from slmcode.nodes.schemas import Clarification, Escalation, Lessons, Plan, Review, Scope, Split
from slmcode.providers.prompts import SCHEMA_INSTRUCTION
from slmcode.providers.structured import answer_schema_text
from slmcode.redact import safe_url
from slmcode.tools.context import ToolContext
from slmcode.tools.registry import DROP_ORDER
from slmcode.tools.schemas import builtin_schemas

ANSWERS: dict[str, type[BaseModel]] = {  # the structured roles and the schema each answers with (nodes/*.py)
    "clarify": Clarification,
    "scope_judge": Scope,
    "planner": Plan,
    "splitter": Split,
    "reviewer": Review,
    "escalate": Escalation,
    "learn": Lessons,
}
TOOL_ROLES = ("worker", "corrector", "tester")
# The role's own instruction (the plan to split, the task to do) and the smallest pack beside the fixed part: a
# request of the splitter on a 768-token window carried 51 tokens more than its fixed part.
TASK_ALLOWANCE = 150
STEP = 256  # windows are tried in steps of this; servers are set in such steps (num_ctx 2048, 4096, ...)
LARGEST = 32768


@dataclass(frozen=True)
class Floor:
    role: str  # the role whose fixed part needs the most
    fixed: int  # its fixed part and task allowance, in prompt tokens
    smallest: int  # the smallest window (in STEP steps) whose prompt limit holds it


def fixed_prompt(role: str, workspace: Path, settings: Settings) -> int:
    """The prompt tokens every request of `role` carries whatever its budget, with the task allowance."""
    system = count_tokens(SYSTEM[role]) + MESSAGE_OVERHEAD_TOKENS
    if role in ANSWERS:
        instruction = SCHEMA_INSTRUCTION.format(schema=answer_schema_text(ANSWERS[role]))
        contract = count_tokens(instruction) + MESSAGE_OVERHEAD_TOKENS
    else:
        # The built-in tools' plain schemas, which a run's tools convert to: no tools built to count them.
        tools = role_tools(role, builtin_schemas(ToolContext(workspace=workspace, settings=settings)))
        contract = schema_tokens([t.as_openai() for t in tools if t.name not in DROP_ORDER])
    return system + contract + TASK_ALLOWANCE


def smallest_window(settings: Settings, role: str, fixed: int) -> int:
    """The smallest window, in STEP steps, whose prompt limit for `role` holds `fixed` tokens."""
    for window in range(STEP * 2, LARGEST + 1, STEP):
        sized = settings.model_copy(update={"context_limit": window})
        if compute_budget(sized, role, settings.model).prompt_limit >= fixed:
            return window
    return LARGEST


def too_small(settings: Settings, workspace: Path, roles: tuple[str, ...] = (*ANSWERS, *TOOL_ROLES)) -> Floor | None:
    """None when every role among `roles` fits `settings`' window; else the role that needs the largest window,
    and that window."""
    fixed = {role: fixed_prompt(role, workspace, settings) for role in roles}
    if all(compute_budget(settings, role, settings.model).prompt_limit >= f for role, f in fixed.items()):
        return None
    smallest, role = max((smallest_window(settings, role, f), role) for role, f in fixed.items())
    return Floor(role, fixed[role], smallest)


def _raise_it(server: str, smallest: int) -> str:
    if server == "ollama":
        return f"raise the model's num_ctx to {smallest} (PARAMETER num_ctx in a Modelfile, or OLLAMA_CONTEXT_LENGTH)"
    if server == "llama.cpp":
        return f"start it with a context of at least {smallest} tokens a slot (-c, divided among --parallel slots)"
    return f"give it a context of at least {smallest} tokens"


def small_window_line(settings: Settings, floor: Floor, server: str, server_tokens: int | None) -> str:
    """One line for a window too small for `floor.role`: whose window it is, and the smallest that works."""
    needs = (
        f"too few for the {floor.role}'s fixed prompt ({floor.fixed} tokens: its system prompt, answer contract "
        f"and task); the smallest window that works is {floor.smallest}"
    )
    window = compute_budget(settings, floor.role, settings.model).window
    if server_tokens is not None and server_tokens <= window:
        where = safe_url(settings.base_url or "")
        return (
            f"the {server} server at {where} keeps {server_tokens} tokens of '{settings.model}': {needs}: "
            + _raise_it(server, floor.smallest)
        )
    return f"a window of {window} tokens for '{settings.model}' (context_limit or its profile): {needs}"
