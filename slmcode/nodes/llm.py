"""The one path every LLM phase takes: build the role's TaskPack, render it, ask the role's model for a
schema, record the pack and the calls in the trace, and hand back a typed value or None with the reason."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from langchain_core.messages import BaseMessage, HumanMessage
from langgraph.runtime import Runtime
from pydantic import BaseModel

from slmcode.budget.tokens import count_tokens
from slmcode.memory.flywheel import read_memory
from slmcode.nodes.progress import progress_config
from slmcode.nodes.prompts import SYSTEM, TOOL_CONTRACT
from slmcode.packs.builder import build_pack, load_repo_index
from slmcode.packs.taskpack import TaskPack
from slmcode.providers.structured import Structured, answer_schema_text, ask_structured
from slmcode.run_context import RunContext, emit, roles_of, trace_of, workspace_of
from slmcode.state import RunState, Task
from slmcode.tools.registry import TOOL_ROLES

T = TypeVar("T", bound=BaseModel)
REASK_ALLOWANCE = 250  # tokens of a clipped invalid answer and the re-ask message
# Of what a structured request leaves after its fixed text: the most an instruction's variable part (the
# reviewer's disk evidence) may take. The pack gets the rest, so the role still sees its task and the code.
INSTRUCTION_SHARE = 0.5


@dataclass(frozen=True)
class Answer(Generic[T]):
    value: T | None
    reason: str = ""


def memory_text(workspace: Path) -> str:
    snapshot = read_memory(workspace)
    return "\n".join(f"- {lesson}" for lesson in snapshot.lessons)


def system_prompt_for(runtime: Runtime[RunContext], role: str) -> str:
    """The role's system prompt: a project agent block's prompt when one overrides the built-in agent."""
    phase = next((p for p in runtime.context.resolved_pipeline().phases if p.name == role), None)
    return phase.prompt if phase and phase.prompt else SYSTEM.get(role, SYSTEM["worker"])


def pack_for(
    runtime: Runtime[RunContext],
    state: RunState,
    role: str,
    *,
    task: Task | None = None,
    focus_files: Sequence[str] = (),
    system_prompt: str | None = None,
    budget_tokens: int | None = None,
    seat: str | None = None,
) -> TaskPack:
    """Build `role`'s pack for this run, record it in the trace and stream it as an event. `seat`: the role
    table's seat when not the role's own (a fallback)."""
    served, workspace = roles_of(runtime)[seat or role], workspace_of(runtime)
    say_windows(runtime, state["run_id"])
    settings = served.settings  # with the agent block's budget_share
    index, failure = load_repo_index(workspace, settings)  # a pack without a map still works, and says why
    pack = build_pack(
        role,
        settings=settings,
        workspace=workspace,
        query=state.get("query", ""),
        system_prompt=system_prompt or system_prompt_for(runtime, role),
        tool_contract=TOOL_CONTRACT if role in TOOL_ROLES else "",
        task=task,
        focus_files=list(focus_files or (task.focus_files if task else ())),
        memory=memory_text(workspace),
        index=index,
        budget_tokens=served.budget.available if budget_tokens is None else budget_tokens,
        index_failure=failure,
    )
    run_id = state["run_id"]
    task_id = task.id if task else None
    sections = [(name, tokens) for name, tokens, _ in pack.sections]
    trace_of(runtime).record_pack(
        run_id,
        role=role,
        task_id=task_id,
        tokens=pack.tokens,
        budget=pack.budget,
        sections=sections,
        hash=pack.hash,
        text=pack.render(),
    )
    emit(
        runtime,
        run_id,
        "pack",
        role=role,
        task_id=task_id,
        tokens=pack.tokens,
        budget=pack.budget,
        sections=sections,
        map=index is not None,
        notes=list(pack.notes),
    )
    return pack


def say_windows(runtime: Runtime[RunContext], run_id: str) -> None:
    """The `window` event of each seat on a server of its own (a role's base_url, a fallback), once, when the seat
    is first used: which window its requests are sized to, as the run's first line says for the run's server."""
    roles = roles_of(runtime)
    for seat, window in roles.take_windows():
        model = roles[seat].binding.model
        said = {k: v for k, v in window.items() if k not in ("kind", "message")}
        emit(
            runtime,
            run_id,
            "window",
            role=seat.split("@")[0],
            **said,
            seat=seat,
            model=model,
            message=f"{seat} ({model}): {window['message']}",
        )


def note_model_call(
    runtime: Runtime[RunContext],
    run_id: str,
    *,
    role: str,
    task_id: str | None,
    latency_ms: float,
    prompt_tokens: int | None,
    completion_tokens: int | None,
    ok: bool,
) -> None:
    """Record one model call in the trace, and show it on the board: its seconds and tokens per second (a
    small model on 2 cores takes tens of seconds a call; the board must show that it is working)."""
    trace_of(runtime).record_model_call(
        run_id,
        role=role,
        task_id=task_id,
        latency_ms=latency_ms,
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
        ok=ok,
    )
    seconds = latency_ms / 1000
    rate = round(completion_tokens / seconds, 1) if completion_tokens and seconds > 0 else None
    runtime.stream_writer(
        {
            "kind": "model_call",
            "role": role,
            "task_id": task_id,
            "seconds": round(seconds, 1),
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "tokens_per_second": rate,
        }
    )


def _riding_tokens(instruction: str, schema: type[BaseModel]) -> int:
    """What rides along with a structured request's pack: the instruction, the schema and one re-ask."""
    return count_tokens(instruction) + count_tokens(answer_schema_text(schema)) + REASK_ALLOWANCE


def instruction_room(runtime: Runtime[RunContext], role: str, schema: type[BaseModel], fixed: str) -> int:
    """The tokens the variable part of `role`'s instruction may take, its `fixed` text (the rest) aside: fitted
    to this room, no workspace's contents can make the request too large to send."""
    budget = roles_of(runtime)[role].budget
    return max(0, int((budget.prompt_limit - _riding_tokens(fixed, schema)) * INSTRUCTION_SHARE))


def ask_role(
    runtime: Runtime[RunContext],
    state: RunState,
    role: str,
    schema: type[T],
    instruction: str,
    *,
    task: Task | None = None,
) -> Answer[T]:
    """Ask `role` for `schema`; a model that cannot answer gives Answer(None, reason), never an exception."""
    roles = roles_of(runtime)
    settings, budget = roles[role].settings, roles[role].budget
    # The pack gets what the request leaves: the instruction, the schema and one re-ask ride along with it.
    extra = _riding_tokens(instruction, schema)
    pack = pack_for(runtime, state, role, task=task, budget_tokens=min(budget.available, budget.prompt_limit - extra))
    messages: list[BaseMessage] = [*pack.messages(), HumanMessage(instruction)]
    result = ask_structured(
        roles.client(role),
        messages,
        schema,
        max_retries=settings.max_retries,
        mode=settings.structured_output,
        config=progress_config(runtime, state["run_id"], role, task.id if task else None),
    )
    for call in result.calls:
        note_model_call(
            runtime,
            state["run_id"],
            role=role,
            task_id=task.id if task else None,
            latency_ms=call.latency_ms,
            prompt_tokens=call.prompt_tokens,
            completion_tokens=call.completion_tokens,
            ok=result.ok,
        )
    if isinstance(result, Structured):
        return Answer(result.value)
    emit(runtime, state["run_id"], "model_failure", role=role, reason=result.reason)
    return Answer(None, f"{role}: {result.reason}")
