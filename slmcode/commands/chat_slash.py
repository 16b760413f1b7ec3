"""The slash commands of `slmcode chat`, each a thin call into what the one-shot commands use: gitrun's undo,
rewind and accept, review mode's apply and reject, the trace, the board, the memory files, the window probe."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.markup import escape
from rich.table import Table

from slmcode.commands.chat_run import ChatState, request, resume
from slmcode.commands.common import console
from slmcode.errors import SlmcodeError
from slmcode.store.chat_threads import end_thread, new_thread, save_thread

MODES = ("auto", "review", "dry-run")


class ExitChat(Exception):
    """/exit: the session ends."""


def say(text: str) -> None:
    console.print(text, markup=False, highlight=False, soft_wrap=True)


def _needs(arg: str, usage: str) -> str:
    if not arg:
        raise SlmcodeError(f"usage: {usage}")
    return arg


def _last_run(state: ChatState) -> str:
    if not state.last_run:
        raise SlmcodeError("no run in this session yet: type a request first")
    return state.last_run


def _outcome(outcome: Any) -> None:
    say(outcome.message)
    for status, path in outcome.changes:
        say(f"  {status} {path}")


def show_help(state: ChatState, arg: str) -> None:
    table = Table("command", "what it does", box=None, pad_edge=False)
    for name, (_handler, usage, text) in COMMANDS.items():
        table.add_row(f"/{name}{' ' + usage if usage else ''}", text)
    console.print(table)
    say(
        "Anything else is a request: a run of the pipeline that sees what this session already did. "
        "@PATH completes a workspace path; Esc Enter (or a line ending in \\) adds a line."
    )


def diff(state: ChatState, arg: str) -> None:
    from slmcode.gitrun.git import Git
    from slmcode.gitrun.images import changes_diff
    from slmcode.gitrun.run_record import load_record
    from slmcode.tools.pending import plan_pending

    git = Git(state.workspace)
    shown = ""
    if git.is_repo():
        record = load_record(state.workspace, state.last_run) if state.last_run else None
        if record is not None and not record.on_user_branch:  # a branch run: its commits, not the tree
            shown = git.call("diff", f"{record.base}..{record.branch}").stdout.decode(errors="replace")
        else:
            shown = git.call("diff", "HEAD").stdout.decode(errors="replace")
            new = git.out("ls-files", "--others", "--exclude-standard")
            shown += "".join(f"new file (untracked): {p}\n" for p in new.splitlines())
        empty = "No change: the tree matches HEAD and no patch is staged."
    else:  # no git to ask: the session's runs against the files as they were before them
        runs = [t.run_id for t in state.thread.turns if t.run_id and not t.undone]
        runs += [state.last_run] if state.last_run and state.last_run not in runs else []
        shown = changes_diff(state.workspace, runs)
        empty = "No change: this session's runs left no file changed and no patch is staged."
    for plan in plan_pending(state.workspace):  # review mode's staged patches
        shown += plan.diff() if hasattr(plan, "diff") else f"refused: {plan}\n"
    say(shown.rstrip("\n") or empty)


def undo(state: ChatState, arg: str) -> None:
    from slmcode.gitrun.undo import undo_target

    target = arg or _last_run(state)
    _outcome(undo_target(state.workspace, target, None, dry_run=False))
    for turn in state.thread.turns:  # what the next request carries says so
        turn.undone = turn.undone or turn.run_id == target
    save_thread(state.workspace, state.thread)


def rewind(state: ChatState, arg: str) -> None:
    from slmcode.gitrun.undo import rewind_run

    _outcome(rewind_run(state.workspace, _last_run(state), _needs(arg, "/rewind TASK"), dry_run=False))


def accept(state: ChatState, arg: str) -> None:
    from slmcode.gitrun.ops import accept as accept_run

    _outcome(accept_run(state.workspace, arg or _last_run(state)))


def apply(state: ChatState, arg: str) -> None:
    from slmcode.gitrun.patches import apply_patches

    say("\n".join(apply_patches(state.workspace, arg.split() or None)) or "No pending patches.")


def reject(state: ChatState, arg: str) -> None:
    from slmcode.tools.pending import reject_pending

    rejected = reject_pending(state.workspace, arg.split() or None)
    say("\n".join(f"rejected {i}  {path}" for i, path in rejected) or "No pending patches.")


def status(state: ChatState, arg: str) -> None:
    settings = state.settings()
    say(
        f"session {state.thread.id}: {state.asked} request(s) run here, {len(state.thread.turns)} finished run(s) "
        f"in its thread; model {settings.model} at "
        f"{settings.base_url or 'the embedded server'}; mode {settings.permission}; "
        f"focus {', '.join(state.thread.focus) or 'none'}; last run {state.last_run or 'none'}"
    )
    for n, turn in enumerate(state.thread.turns, 1):
        say(f"{n}. {turn.line()}")


def board(state: ChatState, arg: str) -> None:
    from slmcode.commands.board import board_table
    from slmcode.run_board import show_board

    console.print(board_table(show_board(arg or _last_run(state), state.workspace)))


def trace(state: ChatState, arg: str) -> None:
    from slmcode.store.trace import TraceStore
    from slmcode.store.trace_view import timeline_table

    with TraceStore.for_workspace(state.workspace) as store:
        console.print(timeline_table(store.timeline(store.run(arg or _last_run(state)).run_id)))


def model(state: ChatState, arg: str) -> None:
    state.flags["model"] = _needs(arg, "/model NAME")
    say(f"model {arg} from the next request on")


def window(state: ChatState, arg: str) -> None:
    from slmcode.serving import fit_to_server

    _fitted, event = fit_to_server(state.settings())
    say(event["message"])


def mode(state: ChatState, arg: str) -> None:
    if arg not in MODES:
        raise SlmcodeError(f"usage: /mode {'|'.join(MODES)}")
    state.flags["permission"] = arg
    say(f"mode {arg} from the next request on")


def add(state: ChatState, arg: str) -> None:
    path = _needs(arg, "/add PATH").lstrip("@")
    if not (state.workspace / path).exists():
        raise SlmcodeError(f"no {path} in {state.workspace}")
    if path not in state.thread.focus:
        state.thread.focus.append(path)
    save_thread(state.workspace, state.thread)
    say(f"focus for the next request: {', '.join(state.thread.focus)}")


def drop(state: ChatState, arg: str) -> None:
    path = _needs(arg, "/drop PATH").lstrip("@")
    state.thread.focus = [f for f in state.thread.focus if f != path]
    save_thread(state.workspace, state.thread)
    say(f"focus for the next request: {', '.join(state.thread.focus) or 'none'}")


def ask(state: ChatState, arg: str) -> None:
    request(state, _needs(arg, "/ask QUESTION"), kind="ask", agent="explorer")


def plan(state: ChatState, arg: str) -> None:
    request(state, _needs(arg, "/plan REQUEST"), kind="plan", approve="plan")


def approve(state: ChatState, arg: str) -> None:
    if not state.paused_plan:
        raise SlmcodeError("no plan waits for approval: /plan REQUEST makes one")
    run_id, state.paused_plan = state.paused_plan, None
    resume(state, run_id, state.paused_request, kind="plan")


def resume_cut(state: ChatState, arg: str) -> None:
    pending = state.thread.pending
    if not pending:
        raise SlmcodeError("no stopped run in this session to resume")
    resume(state, pending["run_id"], pending["request"])


def memory(state: ChatState, arg: str) -> None:
    from slmcode.memory.flywheel import read_memory

    say(read_memory(state.workspace).memory_text.strip() or "MEMORY.md is empty: no lesson learned yet.")


def compact(state: ChatState, arg: str) -> None:
    """The thread carries lines and digests, never transcripts: compacting keeps the last two turns whole."""
    turns = state.thread.turns
    for turn in turns[:-2]:
        turn.digest, turn.answer = "", ""
    save_thread(state.workspace, state.thread)
    say(f"kept {min(len(turns), 2)} turn(s) with their digest, {max(len(turns) - 2, 0)} as one line each")


def clear(state: ChatState, arg: str) -> None:
    end_thread(state.workspace, state.thread)  # kept beside the new one: `slmcode serve` lists it
    state.thread = new_thread()
    state.last_run, state.paused_plan = None, None
    save_thread(state.workspace, state.thread)
    say(f"new session {state.thread.id}: the next request starts with no history")


def leave(state: ChatState, arg: str) -> None:
    raise ExitChat


Handler = Callable[[ChatState, str], None]
COMMANDS: dict[str, tuple[Handler, str, str]] = {
    "help": (show_help, "", "this list"),
    "ask": (ask, "QUESTION", "answer without edits (the explorer alone, read-only tools)"),
    "plan": (plan, "REQUEST", "plan a request and stop before any edit"),
    "approve": (approve, "", "go on with the plan /plan made"),
    "diff": (diff, "", "the uncommitted change (a branch run: its commits; review mode: staged patches)"),
    "undo": (undo, "[RUN|TASK]", "restore the files as they were before the last run (or a task)"),
    "rewind": (rewind, "TASK", "undo every task of the last run after TASK"),
    "accept": (accept, "[RUN]", "bring a branch run's commits into your branch"),
    "apply": (apply, "[ID...]", "write the staged patches (review mode)"),
    "reject": (reject, "[ID...]", "discard the staged patches (review mode)"),
    "resume": (resume_cut, "", "continue the run a Ctrl-C or a kill stopped"),
    "status": (status, "", "this session's requests, model, mode and focus"),
    "board": (board, "[RUN]", "the last run's tasks"),
    "trace": (trace, "[RUN]", "the last run's timeline"),
    "model": (model, "NAME", "the model for the next requests"),
    "window": (window, "", "the window the server really keeps, and the one runs use"),
    "mode": (mode, "|".join(MODES), "how edits are written: auto, staged for review, or recorded only"),
    "add": (add, "PATH", "a focus file for the next request"),
    "drop": (drop, "PATH", "take a focus file back"),
    "memory": (memory, "", "what the runs learned (MEMORY.md)"),
    "compact": (compact, "", "keep only the last two turns' digests in what requests carry"),
    "clear": (clear, "", "start a new session: no history carried"),
    "exit": (leave, "", "end the session (Ctrl-D too)"),
}


def dispatch(state: ChatState, line: str) -> None:
    """One slash command; an unknown one or a user's mistake is one line, and the session goes on."""
    name, _, arg = line[1:].partition(" ")
    entry = COMMANDS.get(name.lower())
    if entry is None:
        say(f"unknown command /{name}: /help lists them")
        return
    try:
        entry[0](state, arg.strip())
    except SlmcodeError as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False, soft_wrap=True)
