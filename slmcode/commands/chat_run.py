"""One request of a chat session, run as `slmcode run` runs it: api.run (or api.resume) under the two-stage
Ctrl-C, the live board while it works (phase, tasks, elapsed time, the model call in flight), the verdict table
at the end. What differs from `run`: nothing ends the process. A paused plan, a Ctrl-C, a refused run come back
to the prompt as one line, and the session's thread records each finished run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.markup import escape

from slmcode.commands.chat_session import carried_request, turn_of
from slmcode.commands.common import console, settings_for
from slmcode.errors import SlmcodeError
from slmcode.store.chat_threads import Thread, save_thread

STOPPED = "stopped: the run keeps its checkpoint; /resume continues it"


class ChatState:
    """What a session holds between requests: the workspace, the run flags, the thread, the last run."""

    def __init__(self, workspace: Path, flags: dict[str, Any], thread: Thread, yes: bool) -> None:
        self.workspace = workspace.resolve()  # gitrun's jailed git and the trace want the real folder
        self.flags = flags  # the keys `slmcode run` passes to api.run: model, base_url, permission, ...
        self.thread = thread
        self.yes = yes
        self.last_run: str | None = thread.turns[-1].run_id if thread.turns else None
        self.paused_plan: str | None = None  # a /plan run waiting for /approve
        self.paused_request = ""
        self.asked = 0  # requests run in this session (finished or not): /status counts them

    def settings(self) -> Any:
        return settings_for(self.workspace, quiet=True, **self.flags).settings


def request(state: ChatState, text: str, *, kind: str = "run", **extra: Any) -> None:
    """Run `text` as a new run of the pipeline, carrying what the session already did."""
    from slmcode import api

    flags = {**state.flags, **extra}
    settings_for(state.workspace, **flags)  # a broken flag is one line before anything starts
    state.asked += 1
    query = carried_request(text, state.thread, state.settings(), state.workspace)
    state.thread.focus = []  # /add is for the next request only
    result = watched(
        state,
        lambda on_event, answer: api.run(query, state.workspace, on_event=on_event, answer=answer, **flags),
        pause=kind == "plan",
        request=text,
    )
    if result is not None:
        record(state, text, kind, result)


def resume(state: ChatState, run_id: str, request_text: str, kind: str = "run") -> None:
    from slmcode import api

    flags = {k: state.flags.get(k) for k in ("model", "base_url")}
    result = watched(
        state,
        lambda on_event, answer: api.resume(run_id, state.workspace, on_event=on_event, answer=answer, **flags),
        pause=False,
        request=request_text,
    )
    if result is not None:
        record(state, request_text, kind, result)


def record(state: ChatState, text: str, kind: str, result: Any) -> None:
    state.last_run = result.run_id
    state.thread.turns.append(turn_of(text, kind, result, state.workspace))
    state.thread.pending = None
    save_thread(state.workspace, state.thread)


def watched(state: ChatState, start: Any, *, pause: bool, request: str) -> Any:
    """The run under the board; None when it paused at its plan or was stopped (the prompt comes back)."""
    from slmcode.api import auto_answer
    from slmcode.commands.board import PlanPaused, plan_answerer, show_paused
    from slmcode.commands.interrupt import two_stage_interrupt
    from slmcode.terminal import RunView, result_table, terminal_answerer

    timeout = state.settings().escalate_timeout_seconds
    answer = plan_answerer(auto_answer if state.yes else terminal_answerer(console, timeout), pause=pause)

    def on_event(view: Any) -> Any:
        def hear(event: dict[str, Any]) -> None:
            if event.get("kind") in ("run_started", "run_resumed"):
                state.last_run = event["run_id"]
                note_started(state, request, event["run_id"])
                event = {**event, "query": request}  # the board names the request, not what it carries
            view.on_event(event)

        return hear

    try:
        with two_stage_interrupt(say_interrupted=False), RunView(console) as view:
            result = start(on_event(view), view.asking(answer))
    except PlanPaused as paused:
        state.paused_plan, state.paused_request = paused.run_id, request
        show_paused(paused.run_id, state.workspace, as_json=False)
        console.print("/approve goes on with this plan; a new request drops it", highlight=False)
        return None
    except KeyboardInterrupt:
        console.print(f"[yellow]{STOPPED}[/yellow]", highlight=False)
        return None
    except (SlmcodeError, OSError) as exc:  # a refused run, a full disk: one line, and the session goes on
        console.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False, soft_wrap=True)
        return None
    console.print(result_table(result))
    if result.answer:
        console.print(result.answer, markup=False, highlight=False)
    style = "green" if result.ok else "red"
    console.print(f"[{style}]{result.outcome}[/{style}]", highlight=False)
    for note in result.git_notes:
        console.print(f"git: {note}", highlight=False, soft_wrap=True)
    console.print(f"[dim]run id {result.run_id}: /trace replays it, /diff shows it, /undo takes it back[/dim]")
    if not result.ok:  # what a failed or partial run left behind, and the way back
        from slmcode.commands.aftermath import undo_lines

        for line in undo_lines(state.workspace, result.run_id, command="/undo")[:1]:
            console.print(f"{line}; /undo puts them back", markup=False, highlight=False, soft_wrap=True)
    return result


def note_started(state: ChatState, request_text: str, run_id: str) -> None:
    """The thread names a run as soon as it starts: a session killed mid-run offers to resume it next time."""
    state.thread.pending = {"run_id": run_id, "request": request_text}
    save_thread(state.workspace, state.thread)
