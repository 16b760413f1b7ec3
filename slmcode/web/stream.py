"""Server-sent events for a live run: poll the trace for events past the last one sent, send each as a table
row (rendered and escaped by the run page's own functions), the phase and the board when they change, and
`end` once the run stopped. The browser's EventSource reconnects with Last-Event-ID, so a dropped
connection resumes where it left off.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable

from slmcode.store.trace import TraceStore
from slmcode.store.trace_view import shown_status
from slmcode.web.board import task_board
from slmcode.web.runs import board_html, event_row, facts_html, phases_html

POLL_SECONDS = 0.4
HEARTBEAT_SECONDS = 15.0
MAX_SECONDS = 900.0  # then the browser reconnects: no thread stays bound to one forgotten tab forever

Send = Callable[[str], None]


def sse(kind: str, data: str, ident: int | None = None) -> str:
    """One event; each line of `data` gets its own `data:` field (the client joins them with newlines)."""
    lines = "".join(f"data: {line}\n" for line in data.split("\n"))
    head = f"id: {ident}\n" if ident is not None else ""
    return f"{head}event: {kind}\n{lines}\n"


def follow(
    store: TraceStore,
    run_id: str,
    after: int,
    send: Send,
    *,
    stop: Callable[[], bool] = lambda: False,
    poll: float = POLL_SECONDS,
) -> None:
    """Send the run's events past `after` as they are recorded, until the run stops (or the client leaves:
    `send` raises OSError)."""
    everything = store.timeline(run_id)
    start = everything[0].ts if everything else store.run(run_id).started
    began = last_beat = time.monotonic()
    while not stop() and time.monotonic() - began < MAX_SECONDS:
        try:
            events = store.timeline(run_id, after)
        except sqlite3.OperationalError:  # a run creating the trace file holds it for a moment: ask again
            time.sleep(poll)
            continue
        if events:
            everything += [e for e in events if e.seq > (everything[-1].seq if everything else 0)]
            send("".join(sse("event", event_row(e, start), e.seq) for e in events))
            after = events[-1].seq
            if any(e.kind == "phase" for e in events):
                send(sse("phase", phases_html(everything)))
            if any(e.kind in ("task", "model_call") for e in events):  # the board counts model requests
                send(sse("board", board_html(run_id, task_board(everything))))
            continue  # drain before looking at the status: the last events precede run_finished
        run = store.run(run_id)
        if shown_status(run) != "running":
            send(sse("end", facts_html(run, everything)))
            return
        if time.monotonic() - last_beat > HEARTBEAT_SECONDS:
            send(": still running\n\n")  # a comment: finds a closed connection, keeps proxies from timing out
            last_beat = time.monotonic()
        time.sleep(poll)
