"""A file the user names outright reaches the worker, however a small model's splitter words the task."""

from __future__ import annotations

from pathlib import Path

import pytest

from slmcode import api
from slmcode.eval.scripted import Rule
from slmcode.nodes.prompts import SYSTEM
from slmcode.packs.named import named_files
from slmcode.store.trace import TraceStore
from tests.fake_llm import FakeLLM, system_text
from tests.graph.scenario import js, make_repo, python_on_path, script_buggy_worker_then_fix, script_planning


def test_named_files_are_the_existing_workspace_files_a_text_names(tmp_path: Path) -> None:
    (tmp_path / "calc").mkdir()
    (tmp_path / "calc" / "ops.py").write_text("x = 1\n")
    (tmp_path / "README.md").write_text("hi\n")
    (tmp_path / ".slmcode").mkdir()
    (tmp_path / ".slmcode" / "task.md").write_text("the long task\n")
    text = (
        "Add divide to calc/ops.py (see ./calc/ops.py and README.md); not https://example.com/calc/ops.py, "
        "not ../secret.txt, not /etc/hosts, not calc/missing.py, not .slmcode/task.md"
    )
    assert named_files(text, tmp_path) == ["calc/ops.py", "README.md"]
    assert named_files("nothing named here.", tmp_path) == []


def test_the_worker_sees_the_file_the_request_names_when_the_splitter_loses_it(
    fake_llm: FakeLLM, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", python_on_path())
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    repo = make_repo(tmp_path)
    script_planning(fake_llm)
    script_buggy_worker_then_fix(fake_llm)
    # What SmolLM2 did in the embedded demo: a task about the wrong file, the named one nowhere in it.
    junk = js(
        {
            "tasks": [
                {
                    "title": "Do the change",
                    "description": "update the command line table",
                    "focus_files": ["calc/cli.py", "tests/test_ops.py"],
                }
            ]
        }
    )
    fake_llm.rules.insert(0, Rule(lambda req: system_text(req).startswith(SYSTEM["splitter"]), [junk], times=1))
    api.run(
        "Add a divide operation to calc/ops.py",
        repo,
        base_url=fake_llm.url,
        model="qwen2.5-coder:7b",
        request_retries=0,
        context_limit=1536,
        max_retries=0,
    )
    trace = TraceStore.for_workspace(repo)
    pack = trace.pack(trace.runs()[0].run_id, "worker")
    assert pack is not None
    # A 441-token pack: the named file's head is there (before the fix, only the splitter's two guesses were).
    assert "### calc/ops.py" in pack.text and "def add(a: float, b: float) -> float:" in pack.text, pack.text
