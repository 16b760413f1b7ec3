"""`slmcode serve` lists the chat sessions of `slmcode chat`: the current one first, then those /clear ended, each
request with its run (a link to the run's page), its outcome and files, and a run a kill cut off."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from slmcode.store.chat_threads import Thread, Turn, end_thread, save_thread
from tests.web.conftest import Web


def test_the_chat_page_lists_every_session_and_its_runs(web: Web) -> None:
    earlier = Thread(
        id="chat-1",
        started=datetime.now(UTC) - timedelta(hours=1),
        turns=[Turn(request="what does calc/cli.py do?", kind="ask", run_id="run-a", outcome="done")],
    )
    end_thread(web.workspace, earlier)  # as /clear keeps it
    current = Thread(
        id="chat-2",
        started=datetime.now(UTC),
        turns=[
            Turn(request="Add a divide operation", run_id="run-b", outcome="done", changed=["calc/ops.py"], undone=True)
        ],
        pending={"run_id": "run-c", "request": "Wire <divide> in"},
    )
    save_thread(web.workspace, current)
    shown = web.get("/chat")
    assert shown.status == 200
    text = shown.text
    assert text.index("chat-2 (current)") < text.index("chat-1")
    assert '<a href="/runs/run-b">run-b</a>' in text and "done (undone)" in text and "calc/ops.py" in text
    assert '<a href="/runs/run-c">run-c</a>' in text and "cut off: not ended" in text
    assert "Wire &lt;divide&gt; in" in text  # the request is text, never markup
    assert "what does calc/cli.py do?" in text
    assert 'href="/chat"' in web.get("/").text  # in the navigation


def test_a_workspace_without_chat_sessions_says_so(web: Web) -> None:
    assert "No chat sessions" in web.get("/chat").text
