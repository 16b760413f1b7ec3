"""Recorded answers replayed against today's code: the harness parses, edits and is graded by hidden tests that
really run, without a model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from slmcode.eval.replay import load_replays
from slmcode.eval.runner import Job, run_job
from slmcode.eval.suite import load_suite
from tests.eval.conftest import slmcode

pytestmark = pytest.mark.slow  # recorded runs through the real pipeline


def test_a_tasks_replays_end_as_recorded_and_a_wrong_fix_fails_its_hidden_tests(tmp_path: Path) -> None:
    result = slmcode("eval", "--replay", "--task", "py-median-even", "--json", "--out", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert {r["replay"]: r["got"] for r in data["replays"]} == {
        "py-median-even.baseline": "solved",
        "py-median-even.harness": "solved",
        "py-median-even.wrong-fix": "tests_failed",
    }
    wrong = next(a for a in data["attempts"] if a["agent"] == "harness" and not a["solved"])
    assert wrong["files_changed"] == ["stats.py"]  # it did edit: the hidden tests, not an empty patch, failed it
    assert "tests/test_hidden.py" in wrong["grade_output"] and "failed" in wrong["grade_output"]
    solved = next(a for a in data["attempts"] if a["agent"] == "harness" and a["solved"])
    assert "passed" in solved["grade_output"] and solved["turns"] > 0 and solved["prompt_tokens"] > 0
    assert Path(data["report"]).is_file()


def test_a_model_calling_a_tool_that_does_not_exist_is_labelled_malformed(on_path: None) -> None:
    replay = next(r for r in load_replays(task_id="py-slugify") if r.name == "py-slugify.malformed")
    task = next(t for t in load_suite() if t.id == "py-slugify")
    attempt = run_job(Job(task, replay.agent, {}, replay), timeout=600)
    assert not attempt.solved
    assert attempt.failure == "malformed_tool_call"
    assert attempt.signals["malformed_calls"] >= 1 and attempt.files_changed == []
    assert "test_hidden.py" in attempt.grade_output  # graded all the same


@pytest.mark.slow
def test_every_replay_still_ends_as_recorded(tmp_path: Path) -> None:
    result = slmcode("eval", "--replay", "--json", "--out", str(tmp_path), cwd=tmp_path, timeout=1800)
    assert result.returncode == 0, result.stderr + result.stdout[-2000:]


def test_a_recorded_attempt_replays_to_the_same_end(tmp_path: Path, on_path: None) -> None:
    from slmcode.eval.replay import load_replay, script
    from tests.fake_llm import FakeLLM

    task = next(t for t in load_suite() if t.id == "py-median-even")
    original = next(r for r in load_replays(task_id=task.id) if r.agent == "baseline")
    with FakeLLM(models=["qwen2.5-coder:7b"]) as model:
        script(model, original)
        recorded = run_job(
            Job(task, "baseline", {"base_url": model.url, "model": "qwen2.5-coder:7b"}, record=tmp_path), timeout=600
        )
    assert recorded.solved
    replay = load_replay(tmp_path / "py-median-even.baseline.jsonl")
    assert replay.expect == "solved" and [a["tool_calls"][0]["name"] for a in replay.answers["baseline"][:2]] == [
        "ws_read",
        "ws_edit",
    ]
    again = run_job(Job(task, "baseline", {}, replay), timeout=600)  # no model behind it any more
    assert again.solved and again.files_changed == ["stats.py"]
