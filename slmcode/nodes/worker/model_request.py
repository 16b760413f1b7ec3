"""One model request of a worker step: the conversation fitted to the room (the pre-model hook's elision, then
the compaction ladder), sent, and retried smaller when the server or our guard says it is too long. A server's
failure becomes one EndpointError line (or a refunded turn for a rate limit); the answer's malformed or
text-written tool calls are repaired before the loop sees them."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.tools import BaseTool
from langgraph.runtime import Runtime

from slmcode.budget.room import WorkerRoom, limits_for
from slmcode.compact.ladder import LadderState
from slmcode.compact.request_view import Cuts, RequestView, request_view
from slmcode.compact.rungs import Compactor
from slmcode.config import Settings
from slmcode.errors import (
    EndpointError,
    RateLimitedError,
    RequestTooLargeError,
    ServerRefusedError,
    ServerStatusError,
    ServerUnreachableError,
)
from slmcode.nodes.attempts import sampling
from slmcode.nodes.fallback import seat_of
from slmcode.nodes.llm import note_model_call
from slmcode.nodes.progress import progress_config
from slmcode.nodes.prompts import OVERFLOW_GIVE_UP
from slmcode.nodes.worker.refund import MAX_REFUNDS, rate_limited
from slmcode.providers.roles import FALLBACK, RoleTable
from slmcode.redact import safe_url
from slmcode.run_context import RunContext, emit, roles_of, settings_of
from slmcode.state import WorkerInput
from slmcode.tools.repair import repair_tool_calls

OVERFLOW_SHRINKS = (1.0, 0.75, 0.5)  # request sizes tried when the server says a request is too long


def request_for(
    messages: list[BaseMessage],
    settings: Settings,
    room: WorkerRoom,
    shrink: float = 1.0,
    ladder: LadderState | None = None,
    roles: RoleTable | None = None,
) -> RequestView:
    """The request view, from the one compaction entry point: the pre-model hook's elision, and the ladder (with
    the compactor model and the breaker state `ladder`) if it is still over the room. `shrink` < 1 after the
    server said a request was too long."""
    if "compaction" in settings.ablate:  # eval --ablate: the conversation as stored, however long
        return RequestView(list(messages), Cuts(0, 0, 0), None)
    limits = limits_for(settings, room=max(1, int(room.room * shrink)))
    return request_view(
        messages,
        settings=settings,
        limits=limits,
        summarize=compactor(roles or RoleTable(settings)),
        ladder_state=ladder,
    )


def call_model(
    runtime: Runtime[RunContext],
    payload: WorkerInput,
    messages: list[BaseMessage],
    tools: list[BaseTool],
    room: WorkerRoom,
    conversation: str,
) -> tuple[AIMessage, LadderState]:
    """The model's answer, and the ladder state after the request it answered. `conversation`: the store's key
    of the messages, which the web view's `view` event names."""
    settings, role, roles = settings_of(runtime), payload["role"], roles_of(runtime)
    model = roles.client(seat_of(payload)).bind_tools(tools)  # the fallback's, once the task escalated
    extra = sampling(payload, roles[role].binding.temperature)  # a best-of-N attempt's own seed (nodes/attempts.py)
    if extra:
        model = model.bind(**extra)
    started = time.perf_counter()
    answer = None
    ladder = LadderState(**payload.get("ladder", {}))
    for shrink in OVERFLOW_SHRINKS:
        try:
            view = request_for(messages, settings, room, shrink, ladder, roles)
            ladder = view.ladder.state if view.ladder is not None else ladder
            answer = model.invoke(
                view.messages, config=progress_config(runtime, payload["run_id"], role, payload["task"].id)
            )
            # How this request cut the stored conversation: the web view marks what the model did not see.
            emit(
                runtime,
                payload["run_id"],
                "view",
                role=role,
                task_id=payload["task"].id,
                conversation=conversation,
                stored=len(messages),
                sent=len(view.messages),
                elided=view.cuts.elided,
                dropped_to=view.cuts.dropped_to,
                rungs=[r.name for r in view.ladder.rungs if r.accepted] if view.ladder else [],
            )
            break
        except RequestTooLargeError:
            # Our own guard counted the fitted view a few tokens over (a view and its payload are counted a little
            # differently: 1,067 of 1,066 tokens stopped the embedded demo's corrector): compact harder, as below.
            emit(
                runtime,
                payload["run_id"],
                "overflow",
                role=role,
                task_id=payload["task"].id,
                shrink=shrink,
                source="guard",
            )
        except ServerRefusedError as exc:
            # The server counts with its own tokenizer; when it says the request is too long, compact harder.
            if not exc.too_long:
                raise EndpointError(f"the model server refused a {role} request: {exc.detail}") from None
            emit(runtime, payload["run_id"], "overflow", role=role, task_id=payload["task"].id, shrink=shrink)
        except ServerUnreachableError as exc:
            raise EndpointError(
                f"{_server_of(runtime, payload)} unreachable during {role} {payload['task'].id}: {exc.detail}"
            ) from None
        except RateLimitedError as exc:  # recoverable: the turn is given back (worker/refund.py)
            if payload.get("refunds", 0) >= MAX_REFUNDS:
                raise EndpointError(
                    f"the model server rate-limited {MAX_REFUNDS + 1} {role} requests in a row "
                    f"({exc.status_code}): {exc.detail}"
                ) from None
            raise rate_limited(exc, payload.get("refunds", 0)) from None
        except ServerStatusError as exc:  # a 5xx: the run stops here, its checkpoint kept for `slmcode resume`
            raise EndpointError(f"the model server failed a {role} request ({exc.status_code}): {exc.detail}") from None
    if answer is None:
        return AIMessage(content=OVERFLOW_GIVE_UP), ladder
    latency = (time.perf_counter() - started) * 1000
    usage: Mapping[str, Any] = answer.usage_metadata or {}
    note_model_call(
        runtime,
        payload["run_id"],
        role=role,
        task_id=payload["task"].id,
        latency_ms=latency,
        prompt_tokens=usage.get("input_tokens"),
        completion_tokens=usage.get("output_tokens"),
        ok=True,
    )
    assert isinstance(answer, AIMessage)
    # Repairs malformed arguments and turns calls written as text (no native tool calling) into real ones.
    if "tool_repair" in settings.ablate:  # eval --ablate: the calls as the model sent them
        return answer, ladder
    return repair_tool_calls(answer, tools), ladder


def compactor(roles: RoleTable) -> Compactor:
    """The ladder's LLM rung reaches the compactor role's model through this; a failure is the ladder's to count."""

    def ask(prompt: str) -> str:
        try:
            return str(roles.client("compactor").invoke([HumanMessage(prompt)]).content)
        except EndpointError as exc:
            raise EndpointError(f"compactor: {exc.__class__.__name__}") from None

    return Compactor(ask, roles["compactor"].budget.available)


def _server_of(runtime: Runtime[RunContext], payload: WorkerInput) -> str:
    """The server a branch's requests go to, in words: the role's fallback named as such (a task raised to it)."""
    seat = seat_of(payload)
    binding = roles_of(runtime)[seat].binding
    where = f" at {safe_url(binding.base_url)}" if binding.base_url else ""
    if seat.endswith(FALLBACK):
        return f"the {payload['role']}'s fallback server{where} ({binding.model})"
    return f"model server{where} ({binding.model})"
