"""Chat sessions (`slmcode chat`): each session's requests, what each run did, and a link to the run's page."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from slmcode.store.chat_threads import list_threads
from slmcode.web.html import esc, page, table


def chat_page(workspace: Path) -> str:
    sections = []
    for n, thread in enumerate(list_threads(workspace)):
        rows = [
            [
                esc(turn.kind),
                esc(turn.request),
                f'<a href="/runs/{quote(turn.run_id)}">{esc(turn.run_id)}</a>' if turn.run_id else "-",
                esc(turn.outcome + (" (undone)" if turn.undone else "")),
                esc(", ".join(turn.changed) or "-"),
            ]
            for turn in thread.turns
        ]
        if thread.pending:  # the run a Ctrl-C or a kill cut off: `slmcode chat` offers to resume it
            run_id = thread.pending.get("run_id", "")
            rows.append(
                [
                    esc("run"),
                    esc(thread.pending.get("request", "")),
                    f'<a href="/runs/{quote(run_id)}">{esc(run_id)}</a>',
                    esc("cut off: not ended"),
                    "-",
                ]
            )
        title = f"{thread.id}{' (current)' if n == 0 else ''}, started {thread.started:%Y-%m-%d %H:%M}"
        sections.append(
            f"<h2>{esc(title)}</h2>"
            + (
                table(["kind", "request", "run", "outcome", "files changed"], rows, cls="stack")
                if rows
                else "<p class=muted>No requests yet.</p>"
            )
        )
    body = "<h1>Chat sessions</h1>" + (
        "".join(sections) or "<p class=muted>No chat sessions: `slmcode chat` starts one.</p>"
    )
    return page("Chat sessions", body, active="/chat")
