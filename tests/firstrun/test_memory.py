"""Memory hygiene: only lessons about this repository reach MEMORY.md, and a user can see and drop each one."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from slmcode.cli import app
from slmcode.memory.flywheel import record_learning
from slmcode.memory.lessons import lesson_problem

runner = CliRunner()
GROUNDS = ["calc/ops.py", "tests/test_ops.py", "python -m pytest -q"]


def test_schema_echo_meta_talk_and_ungrounded_advice_are_refused() -> None:
    assert lesson_problem("The 3 short lessons you requested.", GROUNDS)
    assert lesson_problem("Here are the lessons for calc/ops.py as requested.", GROUNDS)
    assert lesson_problem("Always write clean, well tested code.", GROUNDS)
    assert lesson_problem("Run python -m pytest -q after every edit in calc/.", GROUNDS) is None
    assert lesson_problem("Every operation in ops.py has a docstring and a test.", GROUNDS) is None


def test_memory_lists_lessons_with_ids_and_drops_one(tmp_path: Path) -> None:
    lessons = ["Run python -m pytest -q after every edit.", "calc/ops.py functions take floats."]
    record_learning(tmp_path, run_id="r1", query="q", lessons=lessons, touched=[], conventions=[], summary="done")
    listed = json.loads(runner.invoke(app, ["memory", "-w", str(tmp_path), "--json"]).stdout)["lessons"]
    assert [row["lesson"] for row in listed] == lessons
    dropped = runner.invoke(app, ["memory", "drop", listed[0]["id"], "-w", str(tmp_path)])
    assert dropped.exit_code == 0 and "Run python -m pytest -q" in dropped.stdout
    left = json.loads(runner.invoke(app, ["memory", "-w", str(tmp_path), "--json"]).stdout)["lessons"]
    assert left == listed[1:]
    assert "calc/ops.py functions take floats." in (tmp_path / ".slmcode" / "MEMORY.md").read_text()
    unknown = runner.invoke(app, ["memory", "drop", "zzzzzz", "-w", str(tmp_path)])
    assert unknown.exit_code != 0 and "no single lesson has id zzzzzz" in str(unknown.exception)
