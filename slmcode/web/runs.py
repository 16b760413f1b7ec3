"""The runs list and a run's page: status, phase, task board and timeline (the live parts are fragments the
event stream re-sends, rendered by the same functions)."""

from __future__ import annotations

from slmcode.store.trace import TraceStore
from slmcode.store.trace_rows import Event, RunRow, now
from slmcode.store.trace_view import describe, duration, elapsed, first_line, shown_status
from slmcode.web.board import TaskCard, current_phase, phase_path, task_board, tokens_spent
from slmcode.web.html import esc, page, part, table

ACTIVE = ("running",)


def status_cell(status: str) -> str:
    return f'<span class="status s-{esc(status)}">{esc(status)}</span>'


def took(run: RunRow) -> str:
    return duration(run.started, run.finished or now())


def runs_list(store: TraceStore) -> str:
    runs = store.runs()
    if not runs:
        body = (
            f"<h1>Runs</h1><p>No runs recorded in {esc(store.path.parent.parent)} yet: start one with "
            '<code>slmcode run "..."</code>.</p>'
        )
        return page("Runs", body, active="/")
    rows, tokens = [], store.tokens_by_run()
    for run in runs:
        rows.append(
            [
                f'<a href="/runs/{esc(part(run.run_id))}">{esc(first_line(run.query, 90) or run.run_id)}</a>'
                f"<br><small class=muted>{esc(run.run_id)}</small>",
                status_cell(shown_status(run)),
                esc(first_line(run.outcome, 90)),
                esc(run.started[:19].replace("T", " ")),
                esc(took(run)),
                esc(f"{tokens.get(run.run_id, 0):,}"),
                esc(run.model),
            ]
        )
    body = "<h1>Runs</h1>" + table(
        ["task", "status", "outcome", "started (UTC)", "took", "tokens", "model"], rows, cls="stack"
    )
    return page("Runs", body, active="/")


def board_html(run_id: str, cards: list[TaskCard]) -> str:
    if not cards:
        return "<p class=muted>No tasks yet.</p>"
    rows = [
        [
            f'<a href="/runs/{esc(part(run_id))}/tasks/{esc(part(c.task_id))}">{esc(c.task_id)}</a>',
            esc(c.title),
            status_cell(c.status),
            esc(c.requests or ""),
            esc(", ".join(c.files_changed)),
        ]
        for c in cards
    ]
    return table(["task", "title", "status", "model requests", "files changed"], rows, cls="stack")


def event_row(event: Event, start: str) -> str:
    task = event.task_id or ""
    return (
        f"<tr><td>{esc(event.seq)}</td><td>{esc(elapsed(start, event.ts))}</td><td>{esc(event.kind)}</td>"
        f"<td>{esc(event.role or '')}</td><td>{esc(task)}</td><td>{esc(describe(event))}</td></tr>"
    )


def phases_html(events: list[Event]) -> str:
    """The phases so far as an ordered list, the current one marked (for screen readers too)."""
    current = current_phase(events)
    items = "".join(
        f"<li{' aria-current=step' if name == current else ''}>{esc(name)}</li>" for name in phase_path(events)
    )
    return f"<ol class=phases>{items}</ol>"


def facts_html(run: RunRow, events: list[Event]) -> str:
    """The run's summary; the stream re-sends it when the run ends (final status, outcome, time, tokens)."""
    return (
        f"<dl class=facts><dt>status</dt><dd id=status>{status_cell(shown_status(run))}</dd>"
        f"<dt>outcome</dt><dd>{esc(run.outcome)}</dd>"
        f"<dt>phase</dt><dd id=phase>{phases_html(events)}</dd>"
        f"<dt>model</dt><dd>{esc(run.model)}</dd><dt>started</dt><dd>{esc(run.started)}</dd>"
        f"<dt>took</dt><dd>{esc(took(run))}</dd><dt>tokens</dt><dd>{esc(f'{tokens_spent(events):,}')}</dd>"
        f"<dt>run id</dt><dd>{esc(run.run_id)}</dd></dl>"
    )


def run_page(store: TraceStore, run_id: str, approval: str = "") -> str:
    """`approval`: the plan-approval section (web/approval.py), shown above the board when the run waits."""
    run = store.run(run_id)
    events = store.timeline(run.run_id)
    status = shown_status(run)
    start = events[0].ts if events else run.started
    live = status in ACTIVE
    after = events[-1].seq if events else 0
    stream = f' id=live data-stream="/runs/{esc(part(run.run_id))}/stream?after={after}"' if live else ""
    facts = f"<div id=facts>{facts_html(run, events)}</div>"
    timeline = table(["#", "time", "kind", "role", "task", "what"], [], body_id="events")
    rows = "".join(event_row(e, start) for e in events)
    timeline = timeline.replace('<tbody id="events"></tbody>', f'<tbody id="events">{rows}</tbody>')
    body = (
        f"<h1>{esc(first_line(run.query, 200) or run.run_id)}</h1><p{stream}></p>{facts}{approval}"
        f"<h2>Tasks</h2><div id=board>{board_html(run.run_id, task_board(events))}</div>"
        f"<h2>Events</h2>{timeline}"
    )
    return page(f"Run {run.run_id}", body, active="/", live=live)
