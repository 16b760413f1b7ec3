"""Lifecycle hooks in a scripted run: each event's JSON reaches the hook's stdin (the hook writes it into the
workspace, which the sandbox lets it), and a failing hook is a warning, never a failed run."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from slmcode import api
from slmcode.blocks.discovery import BUILTIN_DIR
from slmcode.store.trace import TraceStore
from slmcode.trust import trust_workspace
from tests.fake_llm import FakeLLM
from tests.graph.scenario import script_buggy_worker_then_fix, script_planning

# Appends the event it reads on stdin as one line of hooks.jsonl.
RECORD = "python -c \"import sys; open('hooks.jsonl', 'a').write(sys.stdin.read() + chr(10))\""


def write_hooks(repo: Path, **hooks: object) -> None:
    pipeline = yaml.safe_load((BUILTIN_DIR / "pipeline-default.yaml").read_text())
    pipeline["hooks"] = hooks
    folder = repo / ".slmcode" / "blocks"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pipeline.yaml").write_text(yaml.safe_dump(pipeline), encoding="utf-8")
    trust_workspace(repo)  # a workspace's hooks run once its user trusts it


def run(fake: FakeLLM, repo: Path) -> tuple[api.RunResult, list[dict]]:
    script_planning(fake)
    script_buggy_worker_then_fix(fake)
    events: list[dict] = []
    result = api.run(
        "Add a divide operation",
        repo,
        base_url=fake.url,
        model="qwen2.5-coder:7b",
        on_event=events.append,
        request_retries=0,
    )
    return result, events


def test_each_event_reaches_its_hooks_as_json_on_stdin(fake_llm: FakeLLM, repo: Path) -> None:
    write_hooks(repo, on_task_done=[RECORD], on_verdict=[RECORD], on_run_end=[RECORD])
    result, events = run(fake_llm, repo)
    assert result.outcome == "done", result.outcome
    got = [json.loads(line) for line in (repo / "hooks.jsonl").read_text().splitlines()]
    assert {g["run_id"] for g in got} == {result.run_id}
    code = next(t for t in result.tasks if t.kind == "code")
    verdicts = [
        (g["status"], g["verify"])
        for g in got
        if g["event"] == "on_verdict" and g["task_id"] == code.id and g["gate"] is None
    ]
    # The first attempt's check failed, the corrected one passed: the hooks heard both, in order.
    assert verdicts == [("FAILED", "python -m pytest -q"), ("PASSED", "python -m pytest -q")]
    done = [g for g in got if g["event"] == "on_task_done"]
    assert [d["task_id"] for d in done if d["kind"] == "code"] == [code.id]
    assert done[0]["files_changed"] == ["calc/cli.py", "calc/ops.py", "tests/test_ops.py"]
    assert got[-1]["event"] == "on_run_end" and got[-1]["status"] == "done" and got[-1]["outcome"] == "done"
    assert not [e for e in events if e["kind"] == "hook_failed"]


def test_a_failing_hook_is_a_warning_and_the_run_still_ends_done(fake_llm: FakeLLM, repo: Path) -> None:
    write_hooks(repo, on_task_done=["false", RECORD], on_run_end=["no-such-notifier --now"], timeout_seconds=5)
    result, events = run(fake_llm, repo)
    assert result.outcome == "done", result.outcome
    warnings = [e for e in events if e["kind"] == "hook_failed"]
    assert any(w["hook"] == "on_task_done" and w["command"] == "false" and "exit 1" in w["message"] for w in warnings)
    assert any(w["hook"] == "on_run_end" and "no-such-notifier" in w["message"] for w in warnings)
    assert (repo / "hooks.jsonl").exists()  # the hook after the failing one still ran
    kinds = [e.kind for e in TraceStore.for_workspace(repo).timeline(result.run_id)]
    assert kinds.count("hook_failed") == len(warnings)
