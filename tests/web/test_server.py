"""The web view over real HTTP on loopback: who is let in, what hostile data becomes on a page, and that its
buttons do what `slmcode apply/reject` and `slmcode memory drop` do."""

from __future__ import annotations

import http.client
import threading
import time
from html import unescape
from pathlib import Path

from slmcode.config import Settings
from slmcode.store.trace import TraceStore
from slmcode.tools.context import ToolContext
from slmcode.tools.workspace import ws_edit, ws_read
from tests.web.conftest import Web, serving

HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'


def record_run(workspace: Path, run_id: str = "run-1", query: str = "Add divide", finish: bool = True) -> TraceStore:
    store = TraceStore.for_workspace(workspace)
    store.start_run(run_id, query=query, workspace=str(workspace), model="qwen2.5-coder:7b", settings={})
    store.record_event(run_id, "phase", {"phase": "splitter"})
    store.record_event(run_id, "task", {"title": HOSTILE, "status": "todo"}, task_id="t1")
    store.record_pack(
        run_id,
        role="worker",
        task_id="t1",
        tokens=900,
        budget=4000,
        sections=[("system", 300), ("repo map", 600)],
        hash="abc123",
        text=f"the pack {HOSTILE}",
    )
    store.record_event(
        run_id, "pack", {"tokens": 900, "budget": 4000, "sections": [["system", 300]]}, role="worker", task_id="t1"
    )  # the live twin nodes/llm.py emits next to the stored pack
    store.record_model_call(
        run_id, role="worker", task_id="t1", latency_ms=5, prompt_tokens=900, completion_tokens=40, ok=True
    )
    store.record_tool_call(
        run_id,
        task_id="t1",
        name="ws_edit",
        ok=True,
        summary="edited",
        args={"path": "calc/<ops>.py", "old_str": "return a * b\n", "new_str": "return a / b\n"},
    )
    store.record_event(
        run_id, "task", {"status": "review", "turns": 2, "files_changed": ["calc/<ops>.py"]}, task_id="t1"
    )
    store.record_verdict(
        run_id, task_id="t1", criterion="the tests pass", status="PASSED", evidence="1 passed </pre><b>x</b>"
    )
    if finish:
        store.finish_run(run_id, status="done", outcome="done")
    return store


def stage_patch(workspace: Path, path: str, old: str, new: str) -> None:
    """A review-mode edit through the real tools, as a worker in `--permission review` makes one."""
    ctx = ToolContext(workspace=workspace, settings=Settings(permission="review"), run_id="run-1", task_id="t1")
    ws_read(ctx, path)
    assert "pending" in ws_edit(ctx, path, old, new).lower() or (workspace / ".slmcode" / "pending").is_dir()


def test_every_request_needs_the_token(web: Web) -> None:
    assert web.get("/", auth=False).status == 401
    assert web.get("/static/style.css", auth=False).status == 401
    assert web.get("/?token=wrong", auth=False).status == 401
    assert web.get("/", headers={"Cookie": f"slmcode_token_{web.port}=wrong"}, auth=False).status == 401
    first = web.get(f"/?token={web.token}", auth=False)
    assert first.status == 303 and first.headers["Location"] == "/"  # the token leaves the address bar
    cookie = first.headers["Set-Cookie"]
    assert web.token in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert web.get("/").status == 200


def test_foreign_origins_and_hosts_are_refused_and_no_cors_is_offered(web: Web) -> None:
    assert web.get("/", headers={"Origin": "http://evil.example"}).status == 403
    assert web.get("/", headers={"Origin": "null"}).status == 403  # a sandboxed frame or a data: page
    assert web.get("/", headers={"Host": "evil.example:80"}).status == 403  # DNS rebinding
    ok = web.get("/", headers={"Origin": f"http://127.0.0.1:{web.port}"})
    assert ok.status == 200
    assert "Access-Control-Allow-Origin" not in ok.headers
    assert "script-src 'self'" in ok.headers["Content-Security-Policy"]


def test_hostile_titles_file_names_and_model_text_are_escaped(web: Web) -> None:
    record_run(web.workspace, query=HOSTILE)
    pages = [
        web.get("/").text,
        web.get("/runs/run-1").text,
        web.get("/runs/run-1/tasks/t1").text,
        web.get("/runs/run-1/pack?role=worker&task=t1").text,
    ]
    for html in pages:
        assert "<script>alert" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in pages[0]
    assert "&lt;img src=x onerror=alert(1)&gt;" in pages[1]  # the task title on the board
    assert "calc/&lt;ops&gt;.py" in pages[2] and "1 passed &lt;/pre&gt;&lt;b&gt;x&lt;/b&gt;" in pages[2]


def test_the_run_and_task_pages_show_status_tokens_verdicts_diff_and_pack_sizes(web: Web) -> None:
    record_run(web.workspace)
    runs = web.get("/").text
    assert "Add divide" in runs and "s-done" in runs and "940" in runs  # 900 prompt + 40 completion tokens
    run = web.get("/runs/run-1").text
    assert "splitter" in run and 'href="/runs/run-1/tasks/t1"' in run and "<p id=live " not in run
    task = web.get("/runs/run-1/tasks/t1").text
    assert "PASSED" in task and "the tests pass" in task
    assert '<span class="del">-return a * b</span>' in task and '<span class="add">+return a / b</span>' in task
    assert "repo map" in task and task.count("900 of 4000 tokens") == 1
    assert "the pack" in web.get("/runs/run-1/pack?role=worker&task=t1").text
    assert web.get("/runs/nope").status == 404
    assert web.get("/runs/run-1/tasks/nope").status == 404


def test_apply_from_the_page_writes_the_file_and_needs_the_form_token(web: Web) -> None:
    (web.workspace / "notes.txt").write_text("old\n")
    stage_patch(web.workspace, "notes.txt", "old", "new text")
    listing = web.get("/patches").text
    assert '<span class="add">+new text</span>' in listing and "Apply 0001" in listing
    assert web.post("/patches/apply", {"id": "0001"}).status == 403  # the cookie alone changes nothing
    foreign = web.post("/patches/apply", {"id": "0001", "token": web.token}, headers={"Origin": "http://evil.example"})
    assert foreign.status == 403
    assert (web.workspace / "notes.txt").read_text() == "old\n"
    done = web.post("/patches/apply", {"id": "0001", "token": web.token})
    assert done.status == 200 and "applied 0001" in done.text
    assert (web.workspace / "notes.txt").read_text() == "new text\n"
    assert "No pending patches" in web.get("/patches").text


def test_reject_keeps_the_file_and_a_stale_patch_is_refused_with_the_cli_reason(web: Web) -> None:
    (web.workspace / "a.txt").write_text("a\n")
    (web.workspace / "b.txt").write_text("b\n")
    stage_patch(web.workspace, "a.txt", "a", "A")
    stage_patch(web.workspace, "b.txt", "b", "B")
    rejected = web.post("/patches/reject", {"id": "0001", "token": web.token})
    assert rejected.status == 200 and "rejected 0001" in rejected.text
    assert (web.workspace / "a.txt").read_text() == "a\n"
    (web.workspace / "b.txt").write_text("changed meanwhile\n")
    stale = web.post("/patches/apply", {"id": "0002", "token": web.token})
    assert stale.status == 409 and "is stale" in stale.text
    assert (web.workspace / "b.txt").read_text() == "changed meanwhile\n"


def test_a_lesson_deleted_on_the_memory_page_leaves_memory_md(web: Web) -> None:
    from slmcode.memory.lessons import lesson_id, render_memory

    keep, drop = "Run python -m pytest -q after editing calc/ops.py", "Never touch calc/cli.py without its test"
    (web.workspace / ".slmcode").mkdir()
    (web.workspace / ".slmcode" / "MEMORY.md").write_text(render_memory("", [keep, drop]))
    assert drop in web.get("/memory").text
    done = web.post("/memory/lessons/delete", {"id": lesson_id(drop), "token": web.token})
    assert done.status == 200 and drop not in (web.workspace / ".slmcode" / "MEMORY.md").read_text()
    assert keep in (web.workspace / ".slmcode" / "MEMORY.md").read_text()


def test_the_event_stream_sends_new_events_then_ends_when_the_run_finishes(web: Web) -> None:
    store = record_run(web.workspace, finish=False)
    assert "<p id=live " in web.get("/runs/run-1").text  # a running run's page follows the stream
    after = store.timeline("run-1")[-1].seq

    def later() -> None:
        time.sleep(0.5)
        store.record_event("run-1", "phase", {"phase": "verify"})
        store.record_event("run-1", "task", {"status": "done", "notes": []}, task_id="t1")
        store.finish_run("run-1", status="done", outcome="done")

    writer = threading.Thread(target=later)
    writer.start()
    conn = http.client.HTTPConnection("127.0.0.1", web.port, timeout=30)
    conn.request(
        "GET", f"/runs/run-1/stream?after={after}", headers={"Host": f"127.0.0.1:{web.port}", "Cookie": web.cookie}
    )
    reply = conn.getresponse()
    assert reply.headers["Content-Type"].startswith("text/event-stream")
    text = reply.read().decode()  # the server closes the stream after `end`
    writer.join()
    assert f"id: {after + 1}\nevent: event\n" in text
    assert "event: phase\ndata: <ol class=phases><li>splitter</li><li aria-current=step>verify</li></ol>\n" in text
    assert "event: board\n" in text and "s-done" in text
    end = text[text.index("event: end\n") :]
    assert '<dd id=status><span class="status s-done">done</span>' in end and end.endswith("</dl>\n\n")


def test_a_deleted_skill_leaves_the_folder_and_the_index_and_a_deleted_session_its_file(web: Web) -> None:
    from datetime import UTC, datetime

    from slmcode.memory.skills_store import render_skill
    from slmcode.store.sessions import SessionSnapshot, list_sessions, write_snapshot

    learned = web.workspace / ".slmcode" / "skills" / "learned"
    for name in ("tests-first", "small-diffs"):
        (learned / name).mkdir(parents=True)
        (learned / name / "SKILL.md").write_text(render_skill(name, f"about {name}", "body"))
    write_snapshot(
        web.workspace, SessionSnapshot(run_id="run-9", thread_id="run-9", created_at=datetime.now(UTC), query="q")
    )
    page = web.get("/memory").text
    assert 'aria-label="Delete skill tests-first"' in page and 'aria-label="Delete session run-9"' in page
    assert web.post("/memory/skills/delete", {"name": "tests-first", "token": web.token}).status == 200
    assert not (learned / "tests-first").exists() and (learned / "small-diffs").is_dir()
    index = (web.workspace / ".slmcode" / "SKILLS.md").read_text()
    assert "small-diffs" in index and "tests-first" not in index
    assert web.post("/memory/skills/delete", {"name": "../..", "token": web.token}).status == 409
    assert web.post("/memory/sessions/delete", {"id": "run-9", "token": web.token}).status == 200
    assert list_sessions(web.workspace) == []


def test_the_conversation_marks_what_the_last_request_left_out(web: Web) -> None:
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

    from slmcode.store.conversations import ConversationStore, conversations_path

    record_run(web.workspace)
    calls = [
        AIMessage("", tool_calls=[{"name": "ws_read", "args": {"path": f"f{i}.py"}, "id": f"c{i}"}]) for i in range(3)
    ]
    results = [ToolMessage(f"contents of f{i}.py {HOSTILE}", tool_call_id=f"c{i}", name="ws_read") for i in range(3)]
    messages = [
        SystemMessage("you are the worker"),
        HumanMessage("Task t1: add divide"),
        *[m for pair in zip(calls, results, strict=True) for m in pair],
        AIMessage("done"),
    ]
    store = ConversationStore(conversations_path(web.workspace))
    store.write("run-1", "worker:t1/1", 0, messages)
    store.write("run-1", "worker:t2/1", 0, messages[:2])  # another task's: not on t1's page
    store.close()
    TraceStore.for_workspace(web.workspace).record_event(
        "run-1",
        "view",
        {
            "conversation": "worker:t1/1",
            "stored": 9,
            "sent": 9,
            "elided": 2,
            "dropped_to": 0,
            "rungs": ["microcompact"],
        },
        role="worker",
        task_id="t1",
    )
    page = web.get("/runs/run-1/tasks/t1").text
    conversation = page[page.index("id=conversation") :]
    assert conversation.count("<details class=conversation>") == 1 and "worker:t1/1" in conversation
    assert "9 messages stored; the last request sent 9 (2 results elided, 0 dropped)" in conversation
    items = conversation.split('<li class="msg')[1:]
    assert [("elided:" in item, "contents of f" in item) for item in items if "result of ws_read" in item] == [
        (True, True),
        (True, True),
        (False, True),
    ]  # the stored text is shown, the first two marked
    assert "#2 task" in conversation and "→ ws_read({&#x27;path&#x27;: &#x27;f0.py&#x27;})" in conversation
    assert "ladder then ran on that request (microcompact)" in conversation
    assert "<script>alert" not in conversation


def test_a_trace_that_is_not_a_database_is_a_page_naming_the_file(tmp_path: Path) -> None:
    # Before: the request died with a traceback on the server's terminal and the browser got no answer.
    trace = tmp_path / ".slmcode" / "trace.sqlite"
    trace.parent.mkdir()
    trace.write_bytes(b"not sqlite" * 400)
    with serving(tmp_path) as web:
        reply = web.get("/")
    assert reply.status == 500
    assert f"{trace}: file is not a database" in unescape(reply.text)
