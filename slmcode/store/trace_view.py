"""How `slmcode status` and `slmcode trace` show runs and events: one short line per event, times relative
to the run's start, whether a run marked running is really still alive, and the Rich tables that hold them."""

from __future__ import annotations

import json
import os
import socket
from datetime import datetime
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from slmcode.store.trace_rows import Event, PackRow, RunRow

LINE_LIMIT = 160


def first_line(text: str, limit: int = LINE_LIMIT) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


def elapsed(start: str, ts: str) -> str:
    """`ts` as seconds after `start`, e.g. '+12.3s'."""
    seconds = (datetime.fromisoformat(ts) - datetime.fromisoformat(start)).total_seconds()
    return f"+{seconds:.1f}s"


def duration(start: str, end: str) -> str:
    """How long from `start` to `end`, as a person says it: '12.3 s', '5 min 42 s'."""
    seconds = (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if minutes < 60 else f"{minutes // 60} h {minutes % 60} min"


def compact(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)


def describe(event: Event) -> str:
    """One line saying what happened, in the words of the event's kind."""
    d = event.data
    if d.get("truncated"):
        return "(too large to keep; truncated) " + first_line(str(d.get("preview", "")))
    if event.kind == "run_started":
        return first_line(str(d.get("query", "")))
    if event.kind == "run_finished":  # the outcome begins with the status already ("failed: task ...")
        status, outcome = str(d.get("status") or ""), str(d.get("outcome") or "")
        return first_line(outcome if outcome.startswith(status) else f"{status}: {outcome}")
    if event.kind == "pack":
        sections = ", ".join(f"{name} {tokens}" for name, tokens in d.get("sections", []))
        return first_line(f"{d.get('tokens')}/{d.get('budget')} tokens, hash {str(d.get('hash'))[:10]}: {sections}")
    if event.kind == "model_call":  # in seconds, as the board says it
        failed = "" if d.get("ok") else ", FAILED"
        return (
            f"{(d.get('latency_ms') or 0) / 1000:.1f} s, prompt {d.get('prompt_tokens')} "
            f"+ completion {d.get('completion_tokens')} tokens{failed}"
        )
    if event.kind == "model_progress":
        rate = f" at {d['tokens_per_second']} tok/s" if d.get("tokens_per_second") else ""
        return first_line(f"in flight {d.get('seconds')} s, {d.get('tokens')} tokens so far{rate}: {d.get('tail', '')}")
    if event.kind == "tool_call":
        outcome = "ok" if d.get("ok") else "error"
        return first_line(f"{d.get('name')}({compact(d.get('args', {}))}) {outcome}: {d.get('summary', '')}")
    if event.kind == "verdict":
        evidence = first_line(str(d.get("evidence", "")), 60)
        return first_line(f"{d.get('status')} {d.get('criterion')}" + (f": {evidence}" if evidence else ""))
    return first_line(readable(d))


def readable(data: dict[str, Any]) -> str:
    """An event's fields as words ("phase planning, tasks 2"), not JSON: empty fields left out, a list joined."""
    parts = []
    for key in sorted(data):
        value = data[key]
        if value in (None, "", [], {}):
            continue
        if isinstance(value, list | tuple):
            value = ", ".join(v if isinstance(v, str) else compact(v) for v in value)
        elif isinstance(value, dict):
            value = compact(value)
        parts.append(f"{key.replace('_', ' ')} {value}")
    return "; ".join(parts)


def process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # signal 0: checks existence, sends nothing
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, owned by someone else
    return True


def shown_status(run: RunRow) -> str:
    """The recorded status, except a 'running' run whose process is gone on this machine: it was killed."""
    if run.status != "running" or run.pid is None or run.host != socket.gethostname():
        return run.status
    return "running" if process_alive(run.pid) else "stopped"


STATUS_STYLE = {"done": "green", "failed": "red", "running": "yellow", "stopped": "magenta", "interrupted": "magenta"}


NARROW = 120  # columns below which `status` puts the task and its outcome in one cell, and leaves out the rest


def runs_table(runs: list[RunRow], width: int = NARROW) -> Table:
    """The runs, the latest first; on a terminal narrower than NARROW (80 columns is common) the run, its status,
    how long it took and one cell with the task over its outcome, so no column is squeezed to a letter a line."""
    narrow = width < NARROW
    columns = ("run", "status", "took", "task and outcome") if narrow else RUN_COLUMNS
    table = Table(*columns)
    # Run ids are what `resume` and `trace` take: never wrapped or cut, whatever the terminal's width.
    table.columns[0].no_wrap = True
    table.columns[0].min_width = max((len(run.run_id) for run in runs), default=3)
    table.columns[1].no_wrap = True
    for run in runs:
        status = shown_status(run)
        cells = [run.run_id, f"[{STATUS_STYLE.get(status, 'white')}]{status}[/]"]
        took = duration(run.started, run.finished) if run.finished else ""
        if narrow:
            what = Text(first_line(run.query, 60))
            what.append("\n" + first_line(run.outcome, 120), style="dim")
            table.add_row(*cells, took, what)
        else:
            started = run.started[:19].replace("T", " ")
            table.add_row(
                *cells, started, took, run.model, Text(first_line(run.query, 60)), Text(first_line(run.outcome, 60))
            )
    return table


RUN_COLUMNS = ("run", "status", "started", "took", "model", "task", "outcome")


def timeline_table(events: list[Event]) -> Table:
    table = Table("#", "time", "kind", "role", "task", "what")
    start = events[0].ts if events else ""
    for event in events:
        table.add_row(
            str(event.seq),
            elapsed(start, event.ts),
            event.kind,
            event.role or "",
            event.task_id or "",
            Text(describe(event)),  # Text: brackets in tool output are not Rich markup
        )
    return table


def pack_header(pack: PackRow) -> Group:
    """Which pack this is, its size against the budget, and the tokens of each section."""
    whose = f"{pack.role} pack" + (f" for task {pack.task_id}" if pack.task_id else "")
    summary = f"{whose}: {pack.tokens}/{pack.budget} tokens, hash {pack.hash}, event #{pack.seq} at {pack.ts}"
    table = Table("section", "tokens")
    for name, tokens in pack.sections:
        table.add_row(name, str(tokens))
    return Group(Text(summary), table)
