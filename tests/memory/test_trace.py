"""The trace store: runs and their states, the timeline in order, the pack a role received, bounded writes,
and no write lost when threads and processes write at once or a writer is killed."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from slmcode.errors import AmbiguousRunError, RunNotFoundError
from slmcode.store.runstate import run_named
from slmcode.store.trace import TraceStore
from slmcode.store.trace_rows import PACK_TEXT_LIMIT, TEXT_LIMIT


def started(store: TraceStore, run_id: str, query: str = "add greet()") -> None:
    store.start_run(run_id, query=query, workspace="/ws", model="qwen2.5-coder:7b", settings={"max_parallel": 2})


@pytest.fixture
def store(tmp_path: Path) -> TraceStore:
    return TraceStore.for_workspace(tmp_path)


def test_a_workspace_without_runs_reads_empty_and_stays_untouched(store: TraceStore, tmp_path: Path) -> None:
    assert store.runs() == []
    assert store.latest_unfinished() is None
    assert store.timeline("nope") == []
    assert not (tmp_path / ".slmcode").exists()


def test_runs_list_the_latest_first_with_their_state(store: TraceStore) -> None:
    started(store, "run-a", "first")
    started(store, "run-b", "second")
    store.finish_run("run-a", status="done", outcome="all criteria passed")

    runs = store.runs()
    assert [r.run_id for r in runs] == ["run-b", "run-a"]
    assert (runs[1].status, runs[1].outcome, runs[1].query) == ("done", "all criteria passed", "first")
    assert runs[1].finished is not None and runs[0].finished is None
    assert runs[0].model == "qwen2.5-coder:7b"


def test_latest_unfinished_skips_finished_and_failed_runs(store: TraceStore) -> None:
    for run_id in ("r1", "r2", "r3", "r4"):
        started(store, run_id)
    store.finish_run("r4", status="done", outcome="")
    store.finish_run("r3", status="failed", outcome="model answered garbage")
    store.finish_run("r1", status="interrupted", outcome="waiting for a human")
    assert store.latest_unfinished() == "r2"
    store.finish_run("r2", status="done", outcome="")
    assert store.latest_unfinished() == "r1"


def test_a_resumed_run_runs_again_and_keeps_its_start(store: TraceStore) -> None:
    started(store, "r1", "the original task")
    store.finish_run("r1", status="interrupted", outcome="killed")
    before = store.run("r1")
    store.start_run("r1", query="ignored", workspace="/ws", model="m", settings={})
    after = store.run("r1")
    assert (after.status, after.finished, after.started, after.query) == (
        "running",
        None,
        before.started,
        "the original task",
    )


def test_timeline_replays_every_record_in_order(store: TraceStore) -> None:
    started(store, "r1")
    store.record_event("r1", "phase", {"phase": "planner"})
    store.record_pack(
        "r1",
        role="worker",
        task_id="t1",
        tokens=900,
        budget=4000,
        sections=[("system", 300), ("task", 600)],
        hash="abc",
        text="You are a worker.",
    )
    store.record_model_call(
        "r1", role="worker", task_id="t1", latency_ms=812.25, prompt_tokens=900, completion_tokens=40, ok=True
    )
    store.record_tool_call(
        "r1", task_id="t1", name="ws_write", args={"path": "app.py"}, ok=True, summary="wrote 3 lines"
    )
    store.record_verdict("r1", task_id="t1", criterion="greet works", status="PASSED", evidence="ok")
    store.finish_run("r1", status="done", outcome="1/1 tasks done")

    events = store.timeline("r1")
    assert [e.kind for e in events] == [
        "run_started",
        "phase",
        "pack",
        "model_call",
        "tool_call",
        "verdict",
        "run_finished",
    ]
    assert [e.seq for e in events] == list(range(1, 8))
    pack, call, tool, verdict = events[2:6]
    assert (pack.role, pack.task_id, pack.data["tokens"], pack.data["sections"]) == (
        "worker",
        "t1",
        900,
        [["system", 300], ["task", 600]],
    )
    assert call.data == {"latency_ms": 812.2, "prompt_tokens": 900, "completion_tokens": 40, "ok": True}
    assert tool.data["name"] == "ws_write" and tool.data["args"] == {"path": "app.py"} and tool.role == "worker"
    assert (verdict.task_id, verdict.data["status"]) == ("t1", "PASSED")
    assert store.timeline("other") == []


def test_pack_is_the_last_one_the_role_received(store: TraceStore) -> None:
    started(store, "r1")
    for task_id, text in [("t1", "first t1"), ("t2", "only t2"), ("t1", "second t1")]:
        store.record_pack(
            "r1", role="worker", task_id=task_id, tokens=10, budget=100, sections=[("task", 10)], hash=text, text=text
        )
    store.record_pack("r1", role="planner", task_id=None, tokens=5, budget=50, sections=[], hash="p", text="plan")

    assert store.pack("r1", "worker").text == "second t1"
    assert store.pack("r1", "worker", "t2").text == "only t2"
    planner = store.pack("r1", "planner")
    assert (planner.task_id, planner.budget, planner.sections) == (None, 50, [])
    assert store.pack("r1", "worker").sections == [("task", 10)]
    assert store.pack("r1", "reviewer") is None
    assert store.pack("r1", "worker", "t9") is None


def test_writes_are_bounded(store: TraceStore) -> None:
    started(store, "r1")
    store.record_verdict("r1", task_id="t1", criterion="c", status="FAILED", evidence="E" * 50_000)
    store.record_tool_call("r1", task_id="t1", name="ws_shell", args={"cmd": "x" * 9_000}, ok=False, summary="s")
    store.record_event("r1", "dump", {"lines": ["y" * 3_000] * 40})
    store.record_pack("r1", role="worker", task_id="t1", tokens=1, budget=1, sections=[], hash="h", text="P" * 200_000)

    verdict, tool, dump = store.timeline("r1")[1:4]
    assert len(verdict.data["evidence"]) < TEXT_LIMIT + 40 and verdict.data["evidence"].endswith("chars]")
    assert len(tool.data["args"]["cmd"]) < TEXT_LIMIT + 40
    assert dump.data["truncated"] is True
    assert len(store.pack("r1", "worker").text) < PACK_TEXT_LIMIT + 40
    assert store.path.stat().st_size < 1_000_000


def test_secrets_never_reach_the_file(store: TraceStore) -> None:
    store.start_run(
        "r1",
        query="q",
        workspace="/ws",
        model="m",
        settings={"api_key": "sk-live-123", "checkpoint_url": "postgresql://me:pw-456@db/x"},
    )
    raw = b"".join(p.read_bytes() for p in store.path.parent.glob("trace.sqlite*"))
    assert b"sk-live-123" not in raw and b"pw-456" not in raw


def test_run_accepts_a_unique_prefix_and_names_unknown_ids(store: TraceStore) -> None:
    started(store, "20260101-aaa")
    started(store, "20260101-abb")
    assert store.run("20260101-aa").run_id == "20260101-aaa"
    with pytest.raises(RunNotFoundError, match="ambiguous"):
        store.run("20260101-a")
    with pytest.raises(RunNotFoundError, match="no run 'zzz'"):
        store.run("zzz")


def test_a_run_named_by_a_prefix_two_runs_share_lists_both_and_an_unknown_one_points_to_status(
    store: TraceStore, tmp_path: Path
) -> None:
    """What `resume`/`trace` say for a name: the ambiguity is kept (with the candidates), not turned into
    'no run'; an unknown name says where to look."""
    started(store, "20260101-aaa")
    started(store, "20260101-abb")
    with pytest.raises(AmbiguousRunError, match=r"ambiguous: 20260101-a.., 20260101-a.."):
        run_named(store, tmp_path, "20260101-a")
    with pytest.raises(RunNotFoundError, match="slmcode status") as unknown:
        run_named(store, tmp_path, "zzz")
    assert not isinstance(unknown.value, AmbiguousRunError)
    assert run_named(store, tmp_path, "20260101-ab") == "20260101-abb"


def test_threads_writing_at_once_lose_nothing(store: TraceStore) -> None:
    started(store, "r1")

    def write(worker: int) -> None:
        for i in range(40):
            store.record_tool_call("r1", task_id=f"t{worker}", name="ws_read", args={"i": i}, ok=True, summary="")

    with ThreadPoolExecutor(max_workers=6) as pool:
        list(pool.map(write, range(6)))
    events = store.timeline("r1")
    assert [e.seq for e in events] == list(range(1, 242))
    for worker in range(6):  # each thread's own writes keep their order
        mine = [e.data["args"]["i"] for e in events if e.task_id == f"t{worker}"]
        assert mine == list(range(40))


WRITER = textwrap.dedent("""
    import os, signal, sys
    from pathlib import Path
    from slmcode.store.trace import TraceStore
    store = TraceStore(Path(sys.argv[1]))
    for i in range(int(sys.argv[3])):
        store.record_event("r1", "step", {"i": i}, task_id=sys.argv[2])
    if sys.argv[4] == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
""")


def test_processes_writing_at_once_lose_nothing_even_when_killed(store: TraceStore) -> None:
    started(store, "r1")
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(store.path), name, "60", mode])
        for name, mode in (("p1", "exit"), ("p2", "kill"))
    ]
    codes = [w.wait(timeout=60) for w in writers]
    assert codes[1] == -9
    events = store.timeline("r1")
    assert [e.seq for e in events] == list(range(1, 122))
    for name in ("p1", "p2"):
        assert [e.data["i"] for e in events if e.task_id == name] == list(range(60))


def test_tool_calls_name_the_role_that_made_them(store: TraceStore) -> None:
    started(store, "r1")
    store.record_tool_call("r1", task_id="t1", name="ws_shell", args={}, ok=True, summary="", role="corrector")
    assert store.timeline("r1")[-1].role == "corrector"
