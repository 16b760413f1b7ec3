"""`slmcode eval` as a user runs it: the task list, the failure labels, and --compare over the scripted server."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from slmcode.eval.prompts import BASELINE_SYSTEM
from slmcode.eval.replay import load_replays, script
from slmcode.eval.taxonomy import Signals, classify, is_overflow
from slmcode.nodes.prompts import SYSTEM
from tests.eval.conftest import slmcode
from tests.fake_llm import FakeLLM, system_text
from tests.snapshot import assert_snapshot

pytestmark = pytest.mark.slow  # `slmcode eval` in a subprocess, as a user starts it


def test_list_shows_every_task_with_its_language_and_why_one_cannot_run(tmp_path: Path) -> None:
    result = slmcode("eval", "--list", "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    assert len(rows) >= 30
    assert {r["language"] for r in rows} == {"python", "javascript", "rust", "go"}
    assert {r["kind"] for r in rows} == {"bug", "feature", "multi-file", "map"}
    for row in rows:
        program = {"python": "python", "javascript": "node", "rust": "cargo", "go": "go"}[row["language"]]
        assert (row["skipped"] is None) == (shutil.which(program) is not None), row
    table = slmcode("eval", "--list", cwd=tmp_path)
    assert "py-median-even" in table.stdout and "javascript" in table.stdout


def test_each_failure_gets_the_label_that_says_why() -> None:
    def label(files: list[str], timed_out: bool = False, **signals: int) -> str | None:
        return classify(solved=False, timed_out=timed_out, signals=Signals(**signals), files_changed=files)

    assert classify(solved=True, timed_out=False, signals=Signals(malformed_calls=3), files_changed=["a"]) is None
    assert label(["a.py"], timed_out=True) == "timeout"
    assert label(["a.py"], overflows=1) == "context_overflow"
    assert is_overflow("a worker request of 1105 tokens exceeds the prompt limit of 1066")
    assert is_overflow("This model's maximum context length is 8192 tokens") and not is_overflow("HTTP 500")
    assert label([], malformed_calls=2, structured_failures=1) == "malformed_tool_call"
    assert label([], structured_failures=1) == "invalid_structured_answer"
    assert label([], longest_repeat=3) == "loop"
    assert label([]) == "empty_patch"
    assert label(["a.py"], longest_repeat=4) == "loop"
    assert label([], loop_stops=1) == "loop"  # the loop guard stopped a task whose calls all differed
    assert label(["a.py"], malformed_calls=1) == "tests_failed"


def test_the_baseline_prompt_is_stable() -> None:
    assert_snapshot("eval_baseline_system.txt", BASELINE_SYSTEM)


def test_compare_runs_harness_and_baseline_on_the_same_model_and_shows_the_ratio(tmp_path: Path) -> None:
    replays = {r.name: r for r in load_replays(task_id="py-median-even")}
    with FakeLLM(models=["qwen2.5-coder:7b"]) as fake:
        script(fake, replays["py-median-even.harness"])
        script(fake, replays["py-median-even.baseline"])
        result = slmcode(
            "eval",
            "--compare",
            "--task",
            "py-median-even",
            "--base-url",
            fake.url,
            "--model",
            "qwen2.5-coder:7b",
            "--out",
            str(tmp_path / "out"),
            cwd=tmp_path,
        )
        requests = list(fake.requests)
    assert result.returncode == 0, result.stderr
    assert "harness / baseline" in result.stdout
    report = json.loads(next((tmp_path / "out").glob("eval-*.json")).read_text())
    summary = report["summary"]
    assert summary["harness"]["solved"] == 1 and summary["baseline"]["solved"] == 1
    baseline = next(a for a in report["attempts"] if a["agent"] == "baseline")
    assert baseline["turns"] == 3 and baseline["files_changed"] == ["stats.py"]
    assert baseline["prompt_tokens"] > 0 and baseline["completion_tokens"] > 0
    # The baseline is a plain loop: its first request is its short prompt and the task, no pack; its tools are
    # the harness worker's tools.
    plain = [r for r in requests if system_text(r) == BASELINE_SYSTEM]
    assert [m["role"] for m in plain[0]["messages"]] == ["system", "user"]
    worker = next(r for r in requests if SYSTEM["worker"] in system_text(r))
    names = sorted(t["function"]["name"] for t in plain[0]["tools"])
    assert names == sorted(t["function"]["name"] for t in worker["tools"])
    assert len(plain) == 3 and len(requests) > len(plain)  # the harness went through its pipeline
