"""Explore or reuse, and the reasons the trace will show."""

from __future__ import annotations

from pathlib import Path

from slmcode.memory.flywheel import record_learning
from slmcode.memory.reuse import decide_explore


def remembered(ws: Path, touched: list[str], lessons: list[str]) -> None:
    for path in touched:
        (ws / path).parent.mkdir(parents=True, exist_ok=True)
        (ws / path).write_text("x = 1\n")
    record_learning(ws, run_id="r1", query="q", lessons=lessons, touched=touched, conventions=[], summary="")


RICH = ["src/csv_parser.py", "src/cli.py", "tests/test_csv_parser.py"]


def test_rich_relevant_memory_is_reused(tmp_path: Path) -> None:
    remembered(tmp_path, RICH, ["quote fields with commas"])
    decision = decide_explore(tmp_path, "Handle quoted commas in the CSV parser", environ={})
    assert not decision.explore
    assert decision.relevant_paths == ["src/csv_parser.py", "tests/test_csv_parser.py"]
    assert decision.reasons[-1] == "reuse memory, skip deep exploration"
    assert "CONTEXT.md lists 3 touched areas (rich" in decision.reasons[0]
    assert decision.reasons[1] == "MEMORY.md (1 lessons) present"


def test_force_explore_wins(tmp_path: Path) -> None:
    remembered(tmp_path, RICH, ["quote fields with commas"])
    decision = decide_explore(tmp_path, "csv parser", environ={"SLMCODE_FORCE_EXPLORE": "1"})
    assert decision.explore and decision.reasons == ["SLMCODE_FORCE_EXPLORE=1 forces exploration"]


def test_empty_workspace_explores(tmp_path: Path) -> None:
    decision = decide_explore(tmp_path, "csv parser", environ={})
    assert decision.explore
    assert decision.reasons[:2] == [
        "CONTEXT.md lists 0 touched areas (not rich: reuse needs at least 3)",
        "neither MEMORY.md lessons nor PROJECT.md exist",
    ]


def test_unrelated_task_explores(tmp_path: Path) -> None:
    remembered(tmp_path, RICH, ["quote fields with commas"])
    decision = decide_explore(tmp_path, "add OAuth login", environ={})
    assert decision.explore
    assert "no path CONTEXT.md knows matches the task's words (login, oauth)" in decision.reasons


def test_project_md_stands_in_for_lessons_and_deleted_paths_do_not_count(tmp_path: Path) -> None:
    remembered(tmp_path, RICH, [])
    (tmp_path / ".slmcode/PROJECT.md").write_text("# Project\n")
    assert not decide_explore(tmp_path, "csv parser bug", environ={}).explore
    for path in ("src/csv_parser.py", "tests/test_csv_parser.py"):
        (tmp_path / path).unlink()
    assert decide_explore(tmp_path, "csv parser bug", environ={}).explore
