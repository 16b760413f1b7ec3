"""The terminal view of a run: a live board of phases and tasks while it runs, a verdict table at the end,
and questions for a human asked at the prompt (with a timeout; unanswered questions go to auto)."""

from __future__ import annotations

import select
import sys
import time
from typing import Any

from rich.console import Console, Group
from rich.live import Live
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from slmcode.api import Answerer, RunResult, auto_answer
from slmcode.state import Verdict

STATUS_STYLE = {"done": "green", "failed": "red", "rejected": "yellow", "running": "cyan", "review": "magenta"}


class RunView:
    """Feeds on the run's custom events; shows the phase, the task board and the last few happenings."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.phase = "starting"
        self.tasks: dict[str, dict[str, Any]] = {}
        self.recent: list[str] = []
        self.started = time.monotonic()
        self.last_call = ""
        self.in_flight: dict[tuple[str, str], str] = {}  # (role, task) -> the call's line while it streams
        # get_renderable: every refresh renders anew, so the elapsed time ticks while a model call runs.
        self.live = Live(console=console, refresh_per_second=4, transient=False, get_renderable=self.render)
        self.showing = False

    def __enter__(self) -> RunView:
        # The board appears with the run's first event: a run refused before it starts (already finished, a
        # busy or unusable workspace, a bad task) prints only its error line, not an empty board.
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        if not self.showing:
            return
        self.live.__exit__(None, None, None)
        if kind is not None:  # the error line that follows must not be glued to the board's last line
            self.console.line()

    def asking(self, answer: Answerer) -> Answerer:
        """`answer` with the board stopped while it waits: a repaint would land under the question's input line.
        The board starts again below the answer."""

        def asked(question: dict[str, Any]) -> Any:
            live = self.showing
            if live:
                self.live.stop()
            try:
                return answer(question)
            finally:
                if live:
                    self.live.start(refresh=True)

        return asked

    def on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("kind")
        if kind in ("run_started", "run_resumed"):
            self.console.print(f"[bold]{kind.replace('_', ' ')}[/bold] {event['run_id']}: {event.get('query', '')}")
        elif kind == "model_starting":
            self.phase = f"starting the embedded model ({event['model']})"
        elif kind == "model_ready":
            self.console.print(
                f"embedded model ({event['model']}) on {event['base_url'].removesuffix('/v1')}, "
                f"started in {event['seconds']} s",
                highlight=False,
            )
            self.phase = "starting"
        elif kind == "window_probe":  # the run waits for its server to say its window (at most a few seconds)
            self.console.print(f"[dim]{escape(event['message'])}[/dim]", highlight=False)
        elif kind == "window":  # the run's window and why: a server that keeps less cuts prompts silently
            style = "yellow" if event.get("warning") else "dim"
            self.console.print(f"[{style}]{escape(event['message'])}[/{style}]", highlight=False)
        elif kind == "user_edits":  # files the user changed while best-of-N attempts worked (nodes/winner.py)
            self.console.print(f"[yellow]{escape(event['message'])}[/yellow]", highlight=False)
        elif kind == "model_call":
            self.last_call = call_line(event)
            if event.get("task_id"):  # the task's model requests, every role's: the web view counts the same
                self.tasks.setdefault(event["task_id"], {"title": ""}).setdefault("requests", 0)
                self.tasks[event["task_id"]]["requests"] += 1
            self.in_flight.pop((str(event.get("role")), str(event.get("task_id"))), None)
        elif kind == "model_progress":  # a call in flight, as its tokens arrive
            self.in_flight[(str(event.get("role")), str(event.get("task_id")))] = progress_line(event)
        elif kind == "phase":
            self.phase = event["phase"]
        elif kind == "task":
            entry = self.tasks.setdefault(event["task_id"], {"title": event.get("title", "")})
            entry["status"] = event.get("status", entry.get("status"))
            entry["title"] = event.get("title") or entry.get("title", "")
        elif kind == "verdict":
            self.recent.append(f"{event['task_id']}: {event['status']} {shorten(event['criterion'], 60)}")
        elif kind == "fallback":  # a task escalated to its role's stronger model (nodes/fallback.py)
            self.recent.append(f"[yellow]{escape(shorten(event.get('message', ''), 120))}[/yellow]")
        elif kind == "model_failure":
            self.recent.append(f"[yellow]{event['role']}: {escape(user_reason(event['reason']))}[/yellow]")
        elif kind in ("hook_failed", "mcp_unavailable"):  # warnings: the run goes on without them
            self.recent.append(f"[yellow]warning: {escape(shorten(event.get('message', ''), 120))}[/yellow]")
        self.recent = self.recent[-4:]
        if not self.showing:
            self.showing = True
            self.live.__enter__()
        self.live.refresh()

    def render(self) -> Group:
        board = Table("task", "title", "status", "model requests", box=None, pad_edge=False)
        for task_id, entry in self.tasks.items():
            status = entry.get("status") or "pending"
            board.add_row(
                task_id,
                entry.get("title", "")[:50],
                Text(status, STATUS_STYLE.get(status, "")),
                str(entry.get("requests", 0)),
            )
        minutes, seconds = divmod(int(time.monotonic() - self.started), 60)
        head = Text(f"phase: {self.phase}  {minutes}:{seconds:02d}", style="bold")
        calls = [Text(self.last_call, style="dim")] if self.last_call else []
        flying = [Text(line, style="cyan", no_wrap=True, overflow="ellipsis") for line in self.in_flight.values()]
        return Group(head, board, *calls, *flying, *(Text.from_markup(r) for r in self.recent))


def shorten(text: str, width: int) -> str:
    """One line of at most `width` characters, cut between words with an ellipsis."""
    line = " ".join(text.split())
    if len(line) <= width:
        return line
    cut = line[: width - 1].rsplit(" ", 1)[0] if " " in line[: width - 1] else line[: width - 1]
    return cut.rstrip(" ,;:") + "…"


def user_reason(reason: str) -> str:
    """A model failure as the user needs it: what failed, without the validator's feedback meant for the model
    ("no valid Plan after 3 answers: 'A short title.' is the schema's description ..." -> the part before)."""
    head = reason.split(": ", 1)[0] if reason.startswith("no valid ") else reason
    return shorten(head, 80)


def call_line(event: dict[str, Any]) -> str:
    """The last model call: who, how long, how fast."""
    who = " ".join(str(p) for p in (event.get("role"), event.get("task_id")) if p)
    rate = event.get("tokens_per_second")
    speed = f", {event.get('completion_tokens')} tokens at {rate} tok/s" if rate else ""
    return f"last model call: {who} {event.get('seconds')} s{speed}"


def progress_line(event: dict[str, Any]) -> str:
    """A call in flight: who, the tokens received so far and their rate, and the last words it wrote."""
    who = " ".join(str(p) for p in (event.get("role"), event.get("task_id")) if p)
    rate = event.get("tokens_per_second")
    speed = f" at {rate} tok/s" if rate else ""
    tail = event.get("tail") or ""
    return f"model call in flight: {who} {event.get('seconds')} s, {event.get('tokens')} tokens so far{speed}: {tail}"


def gates_cell(verdicts: list[Verdict]) -> str:
    """The quality gates' rows in a few words: each one that did not pass by name, else how many passed."""
    attempts = [v.criterion.text for v in verdicts if v.gate == "attempts"]  # best-of-N: "attempt 2 of 3 won"
    gates = [v for v in verdicts if v.gate not in (None, "attempts")]
    shown = [f"gate {v.gate} {v.status.lower()}" for v in gates if v.status != "PASSED"]
    summary = ", ".join(shown) if shown else (f"gates {len(gates)}/{len(gates)} passed" if gates else "")
    return "; ".join(p for p in (summary, *attempts) if p)


def criteria_cell(verdicts: list[Verdict]) -> str:
    """The criteria's statuses counted: 'criterion PASSED', '2 criteria: 1 PASSED, 1 FAILED'."""
    statuses = [v.status for v in verdicts if v.gate is None]
    if not statuses:
        return ""
    counts = {s: statuses.count(s) for s in dict.fromkeys(statuses)}
    if len(counts) == 1:
        return f"{'criterion' if len(statuses) == 1 else f'{len(statuses)} criteria'} {statuses[0]}"
    return f"{len(statuses)} criteria: " + ", ".join(f"{n} {s}" for s, n in counts.items())


def result_table(result: RunResult) -> Table:
    # A model column only when a task escalated to a fallback model: it names the model whose attempts the
    # verdicts judge (the others ran on their role's own model).
    escalated = any(task.fallback_model for task in result.tasks)
    columns = ["task", "title", "status", "verdicts", "files changed", *(["model"] if escalated else [])]
    table = Table(*columns, title=f"run {result.run_id}")
    for task in result.tasks:
        verdicts = "; ".join(p for p in (criteria_cell(task.verdicts), gates_cell(task.verdicts)) if p) or "-"
        model = [f"fallback {task.fallback_model}" if task.fallback_model else "own"] if escalated else []
        table.add_row(
            task.id,
            task.title[:40],
            Text(task.status, STATUS_STYLE.get(task.status, "")),
            verdicts,
            ", ".join(task.files_changed) or "-",
            *model,
        )
    return table


def _timed_input(prompt: str, timeout: float) -> str | None:
    sys.stdout.write(prompt)
    sys.stdout.flush()
    ready, _, _ = select.select([sys.stdin], [], [], timeout)
    return sys.stdin.readline().strip() if ready else None


def terminal_answerer(console: Console, timeout: float) -> Answerer:
    """Ask at the prompt when there is a terminal; otherwise, or after the timeout, answer automatically."""

    def answer(question: dict[str, Any]) -> Any:
        if not sys.stdin.isatty():
            return auto_answer(question)
        kind = question.get("kind")
        if kind == "clarify":
            replies = []
            for q in question.get("questions", []):
                reply = _timed_input(f"{q['question']} [{q['recommended']}] ", timeout)
                replies.append(reply or q["recommended"])
            return replies
        if kind == "shell":
            reply = _timed_input(f"Run `{question['command']}`? [y/N] ", timeout)
            return (reply or "n").lower().startswith("y")
        console.print(question.get("question", ""))
        reply = _timed_input("retry: <guidance> | give_up | auto (default) > ", timeout)
        return reply or "auto"

    return answer
