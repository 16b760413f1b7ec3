"""The worker: a ReAct loop of our own, `work -> run_tools -> work ...`, one task per branch.

The loop is two nodes of the run graph joined by Send, not a nested subgraph: every model call and every
tool step is then its own superstep with its own checkpoint. A subgraph reached through Send restarts
from scratch after a crash, redoing model calls and edits; this way a killed run resumes at the step it
was in, and the tool-call journal answers any call that had already run.

The conversation itself is not in the payload: LangGraph stores every Send payload in every checkpoint, so a
carried conversation made a task of n turns cost O(n^2) checkpoint bytes. Each step appends its new messages
to the workspace's conversation store (store.conversations) before it returns, and the payload carries the
store's key and the conversation's length; the whole conversation joins the run state once, when the branch
ends. The compaction ladder's state (its circuit breaker) rides in the payload too, so it lasts the branch.
"""

from __future__ import annotations

import dataclasses
import functools
import time

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langgraph.runtime import Runtime
from langgraph.types import Command, Send

from slmcode.compact.offload import offload_tool_output
from slmcode.nodes.attempts import branch_key, finish, workspace_for
from slmcode.nodes.corrector import stalled
from slmcode.nodes.disk_changes import net_changes
from slmcode.nodes.fallback import seat_of
from slmcode.nodes.focus import focus_nudge, focus_on, last_done_turn, turn_limit
from slmcode.nodes.loop_guard import Tally, guard_on, steer, stop_reason, tally
from slmcode.nodes.prompts import LOOP_STOP, NUDGE_NO_TOOLS, TURN_LIMIT
from slmcode.nodes.transcript import files_changed, touched_path
from slmcode.nodes.worker.model_request import call_model
from slmcode.nodes.worker.opening import opening
from slmcode.nodes.worker.refund import Refund
from slmcode.nodes.worker.toolset import request_tools, tool_context
from slmcode.run_context import RunContext, emit, roles_of, settings_of, stream, trace_of, workspace_of
from slmcode.state import Task, WorkerInput
from slmcode.store.conversations import store_for
from slmcode.tools.shellchanges import split_note
from slmcode.tools.toolset import run_tool_call


def conversation_key(task: Task) -> str:
    return f"{task.id}/{task.attempts}"


def _store_key(payload: WorkerInput) -> str:
    return f"{payload['role']}:{branch_key(conversation_key(payload['task']), payload)}"


def conversation(runtime: Runtime[RunContext], payload: WorkerInput) -> list[BaseMessage]:
    """The branch's conversation so far, as its payload names it."""
    if "length" not in payload:
        return list(payload.get("messages", []))
    return store_for(workspace_of(runtime)).read(payload["run_id"], _store_key(payload), payload["length"])


def _next(
    runtime: Runtime[RunContext],
    payload: WorkerInput,
    node: str,
    messages: list[BaseMessage],
    known: int,
    **update: object,
) -> Send:
    """The Send to `node` for a conversation that now reads `messages`, of which the first `known` are stored:
    the rest is appended (committed) before the step returns, so the checkpoint after it never names a length
    the store has not got."""
    length = store_for(workspace_of(runtime)).write(payload["run_id"], _store_key(payload), known, messages[known:])
    carried = {k: v for k, v in payload.items() if k != "messages"}
    return Send(node, {**carried, **update, "length": length})


def _text(answer: AIMessage) -> str:
    return answer.content if isinstance(answer.content, str) else ""


def work(payload: WorkerInput, runtime: Runtime[RunContext]) -> Command:
    """One model step for one task: start the conversation on the first turn, then ask for the next action."""
    task, role = payload["task"], payload["role"]
    messages = conversation(runtime, payload)  # read once per step: the tools' context reads it too
    fitted = request_tools(runtime, payload, tool_context(runtime, payload, messages))  # as run_tools will run
    tools, room = fitted.tools, fitted.room
    known = len(messages) if "length" in payload else 0
    messages = messages or opening(runtime, payload, fitted)
    try:
        answer, ladder = call_model(runtime, payload, messages, tools, room, _store_key(payload))
    except Refund as refund:  # the same step again, with the same turn number: this one does not count
        refunds = payload.get("refunds", 0) + 1
        emit(
            runtime,
            payload["run_id"],
            "refund",
            role=role,
            task_id=task.id,
            turn=payload["turn"],
            reason=refund.reason,
            refunds=refunds,
        )
        time.sleep(refund.wait)
        return Command(goto=_next(runtime, payload, "worker", messages, known, refunds=refunds))
    turn = payload["turn"] + 1
    messages.append(answer)
    carried = {"turn": turn, "ladder": dataclasses.asdict(ladder), "refunds": 0}
    settings = settings_of(runtime)
    # Counted from the latest focus file done: a multi-file task that keeps finishing files keeps going.
    max_turns = roles_of(runtime)[seat_of(payload)].profile.max_turns
    if focus_on(settings):
        max_turns = turn_limit(max_turns, last_done_turn(task, messages))
    looping = stop_reason(messages, guard_on(settings), settings.loop_guard_calls)
    if answer.tool_calls and turn < max_turns and looping is None:
        emit(
            runtime,
            payload["run_id"],
            "turn",
            role=role,
            task_id=task.id,
            turn=turn,
            calls=[c["name"] for c in answer.tool_calls],
        )
        return Command(
            goto=_next(runtime, payload, "tools", messages, known, **carried, result_bytes=room.result_bytes)
        )
    if answer.tool_calls:  # looping or out of turns with calls pending: close the pairs so the transcript stays valid
        stop = LOOP_STOP.format(reason=looping) if looping else TURN_LIMIT
        messages += [ToolMessage(stop, tool_call_id=c["id"], status="error") for c in answer.tool_calls]
        if looping:
            emit(runtime, payload["run_id"], "loop", role=role, task_id=task.id, turn=turn, reason=looping)
    elif turn == 1 and not files_changed(messages):
        # A first answer with no tool call at all is a small model's commonest slip: one nudge.
        return Command(
            goto=_next(runtime, payload, "worker", [*messages, HumanMessage(NUDGE_NO_TOOLS)], known, **carried)
        )
    elif (
        focus_on(settings)
        and turn < max_turns
        and role != "explorer"
        and (left := focus_nudge(task, messages, _text(answer)))
    ):
        # "Done" with focus files unchanged and unexplained: back to work, naming them (bounded in nodes/focus.py).
        return Command(goto=_next(runtime, payload, "worker", [*messages, left], known, **carried))
    # What the disk holds changed, not every path a write tool reported (an edit put back is no change).
    changed = net_changes(workspace_for(runtime, payload), payload["run_id"], task.id, files_changed(messages))
    if payload.get("attempt"):  # one of a task's attempts: checked in its copy; the join keeps one of them
        length = store_for(workspace_of(runtime)).write(payload["run_id"], _store_key(payload), known, messages[known:])
        return Command(
            goto="join",
            update=finish(
                runtime,
                payload,
                changed,
                turns=turn,
                length=length,
                looped=looping,
                summary=_text(answer),
            ),
        )
    all_changed = net_changes(workspace_of(runtime), payload["run_id"], task.id, [*task.files_changed, *changed])
    done = task.model_copy(update={"status": "review", "files_changed": all_changed, "stalled": stalled(task, changed)})
    summary = _text(answer)
    emit(
        runtime,
        payload["run_id"],
        "task",
        role=role,
        task_id=task.id,
        status="review",
        turns=turn,
        files_changed=changed,
    )
    store_for(workspace_of(runtime)).forget(payload["run_id"], _store_key(payload))
    # The conversation joins the run state once, when the branch ends: while it runs, the store holds it, and
    # writing it to the state at every step would re-save it whole in every checkpoint.
    stopped = f"stopped as a loop ({looping}); " if looping else ""
    return Command(
        goto="join",
        update={
            "tasks": [done],
            "conversations": {conversation_key(task): messages},
            "work_log": [f"{role} {task.id}: {turn} turns, {len(changed)} files; {stopped}{summary[:120]}"],
        },
    )


def run_tools(payload: WorkerInput, runtime: Runtime[RunContext]) -> Command:
    """Run the last answer's tool calls; a call this run already executed is answered from the journal."""
    workspace = workspace_for(runtime, payload)
    run_id, task = payload["run_id"], payload["task"]
    messages = conversation(runtime, payload)
    known_length = len(messages) if "length" in payload else 0
    answer = messages[-1]
    assert isinstance(answer, AIMessage)
    ctx = tool_context(runtime, payload, messages)
    tools = request_tools(runtime, payload, ctx).tools  # a tool left out of the request is not run either
    journal = runtime.context.tool_journal()
    results: list[ToolMessage] = []
    # Read off the stored conversation, not counted in memory: a resumed step steers the same calls.
    counted = tally(messages) if guard_on(settings_of(runtime)) else Tally()
    for call in answer.tool_calls:
        call_key = f"{branch_key(conversation_key(task), payload)}:{payload['turn']}:{call['id']}"
        known = journal.recorded(run_id, call_key)
        if known is None:
            if journal.stop_leftovers(run_id, call_key):
                emit(runtime, run_id, "leftover_stopped", task_id=task.id, name=call["name"])
            ctx.on_process = functools.partial(journal.started, run_id, call_key)
            message = run_tool_call(tools, call)
            # A long result goes to a file with a preview kept; the changed-files line stays its last line.
            content, note = split_note(str(message.content))
            content = (
                offload_tool_output(
                    content,
                    workspace=workspace,
                    run_id=run_id,
                    name=call["name"],
                    limit_bytes=ctx.inline_bytes,
                    kind="log" if call["name"] == "ws_shell" else "text",
                )
                + note
            )
            known = (content, message.status)
            journal.record(run_id, call_key, *known)
            trace_of(runtime).record_tool_call(
                run_id,
                task_id=task.id,
                name=call["name"],
                args=call["args"],
                ok=known[1] != "error",
                summary=content[:300],
            )
            stream(runtime, "tool", task_id=task.id, name=call["name"], ok=known[1] != "error")  # traced above
        # The path the tool resolved, so the next step's read/changed sets name the file as the tools do.
        path = touched_path(workspace, call["name"], call["args"]) if known[1] != "error" else None
        # A repeated call's result says so (loop_guard), above the changed-files line that must stay last; the
        # journal keeps the tool's own result.
        content, note = split_note(known[0])
        results.append(
            ToolMessage(
                content + steer(call, counted) + note,
                tool_call_id=call["id"],
                name=call["name"],
                status=known[1],
                artifact={"path": path} if path else None,
            )
        )
    return Command(goto=_next(runtime, payload, "worker", [*messages, *results], known_length))
