"""The terminal view of a run: a live board of phases and tasks while it runs, a verdict table at the end,
and questions for a human asked at the prompt (with a timeout; unanswered questions go to auto)."""

from __future__ import annotations

import select
import sys
from typing import Any

from rich.console import Console, Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from slmcode.api import Answerer, RunResult, auto_answer

STATUS_STYLE = {"done": "green", "failed": "red", "rejected": "yellow", "running": "cyan", "review": "magenta"}


class RunView:
    """Feeds on the run's custom events; shows the phase, the task board and the last few happenings."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.phase = "starting"
        self.tasks: dict[str, dict[str, Any]] = {}
        self.recent: list[str] = []
        self.live = Live(self.render(), console=console, refresh_per_second=4, transient=False)

    def __enter__(self) -> RunView:
        self.live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.live.__exit__(None, None, None)

    def on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("kind")
        if kind in ("run_started", "run_resumed"):
            self.console.print(f"[bold]{kind.replace('_', ' ')}[/bold] {event['run_id']}: {event.get('query', '')}")
        elif kind == "phase":
            self.phase = event["phase"]
        elif kind == "task":
            entry = self.tasks.setdefault(event["task_id"], {"title": event.get("title", ""), "turns": 0})
            entry["status"] = event.get("status", entry.get("status"))
        elif kind == "turn":
            self.tasks.setdefault(event["task_id"], {"title": ""})["turns"] = event["turn"]
        elif kind == "verdict":
            self.recent.append(f"{event['task_id']}: {event['status']} {event['criterion'][:60]}")
        elif kind == "model_failure":
            self.recent.append(f"[yellow]{event['role']}: {event['reason'][:100]}[/yellow]")
        self.recent = self.recent[-4:]
        self.live.update(self.render())

    def render(self) -> Group:
        board = Table("task", "title", "status", "turns", box=None, pad_edge=False)
        for task_id, entry in self.tasks.items():
            status = entry.get("status") or "pending"
            board.add_row(task_id, entry.get("title", "")[:50], Text(status, STATUS_STYLE.get(status, "")),
                          str(entry.get("turns", 0)))
        return Group(Text(f"phase: {self.phase}", style="bold"), board, *(Text.from_markup(r) for r in self.recent))


def result_table(result: RunResult) -> Table:
    table = Table("task", "title", "status", "verdicts", "files changed", title=f"run {result.run_id}")
    for task in result.tasks:
        verdicts = " ".join(f"{v.status}" for v in task.verdicts) or "-"
        table.add_row(task.id, task.title[:40], Text(task.status, STATUS_STYLE.get(task.status, "")), verdicts,
                      ", ".join(task.files_changed) or "-")
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
