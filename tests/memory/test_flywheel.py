"""What the learn step leaves in .slmcode/ and what the next run reads back."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from slmcode.memory.context_file import MAX_RUNS, MAX_TOUCHED, compact_touched, parse_context
from slmcode.memory.flywheel import read_memory, record_learning
from slmcode.memory.lessons import MAX_LESSONS, merge_lessons, updated_memory

WHEN = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def learn(ws: Path, run_id: str, **kw: object) -> list[Path]:
    args: dict[str, object] = {
        "query": "add a csv parser",
        "lessons": [],
        "touched": [],
        "conventions": [],
        "summary": "did it",
        "now": WHEN,
    }
    args.update(kw)
    return record_learning(ws, run_id=run_id, **args)  # type: ignore[arg-type]


def test_first_run_writes_every_memory_file(tmp_path: Path) -> None:
    written = learn(
        tmp_path,
        "run-1",
        lessons=["pytest needs -p no:cacheprovider here"],
        touched=["./src/parser.py", "tests/test_parser.py"],
        conventions=[("Error Messages", "errors name the file", "Always say which file failed.")],
    )
    names = sorted(p.relative_to(tmp_path / ".slmcode").as_posix() for p in written)
    assert names == [
        "CONTEXT.md",
        "MEMORY.md",
        "SKILLS.md",
        "sessions/run-1.json",
        "skills/learned/error-messages/SKILL.md",
    ]
    memory = read_memory(tmp_path)
    assert memory.lessons == ["pytest needs -p no:cacheprovider here"]
    assert memory.touched == ["src/parser.py", "tests/test_parser.py"]
    assert memory.recent_runs == ["2025-03-01 run-1: did it (task: add a csv parser)"]
    assert [(s.name, s.description) for s in memory.skills] == [("error-messages", "errors name the file")]
    assert "**error-messages**: errors name the file (skills/learned/error-messages/SKILL.md)" in memory.skills_text
    skill_text = (tmp_path / ".slmcode/skills/learned/error-messages/SKILL.md").read_text()
    assert skill_text.startswith("---\nname: error-messages\ndescription: errors name the file\n---\n")


def test_second_run_merges_without_losing_the_first(tmp_path: Path) -> None:
    learn(tmp_path, "run-1", lessons=["Lesson one."], touched=["a.py", "b.py"])
    learn(tmp_path, "run-2", lessons=["lesson ONE", "lesson two"], touched=["c.py", "a.py"])
    memory = read_memory(tmp_path)
    assert memory.lessons == ["lesson ONE", "lesson two"]  # a repeat is kept once, as the latest mention
    assert memory.touched == ["c.py", "a.py", "b.py"]  # newest first
    assert [r.split(":")[0] for r in memory.recent_runs] == ["2025-03-01 run-2", "2025-03-01 run-1"]


def test_user_text_above_the_managed_lists_is_kept(tmp_path: Path) -> None:
    state = tmp_path / ".slmcode"
    state.mkdir()
    (state / "MEMORY.md").write_text("# Memory\n\nWe deploy on Fridays only.\n")
    learn(tmp_path, "run-1", lessons=["x"])
    text = (state / "MEMORY.md").read_text()
    assert text.startswith("# Memory\n\nWe deploy on Fridays only.\n\n## Lessons\n\n- x\n")


def test_nothing_new_writes_only_the_session(tmp_path: Path) -> None:
    learn(tmp_path, "run-1", lessons=["x"], touched=["a.py"])
    written = learn(tmp_path, "run-1", lessons=["x"], touched=["a.py"])
    assert [p.name for p in written] == ["run-1.json"]


def test_lessons_are_bounded_to_the_newest() -> None:
    lessons = merge_lessons([], [f"lesson {i}" for i in range(MAX_LESSONS + 10)])
    assert len(lessons) == MAX_LESSONS and lessons[-1] == f"lesson {MAX_LESSONS + 9}"
    assert "- " + "y" * 299 + "…" in updated_memory("", ["y" * 1000])


def test_context_stays_compact_over_many_runs(tmp_path: Path) -> None:
    for run in range(40):
        learn(tmp_path, f"run-{run:02d}", touched=[f"pkg{run % 4}/mod{run}.py"])
    memory = read_memory(tmp_path)
    assert len(memory.touched) <= MAX_TOUCHED and len(memory.recent_runs) == MAX_RUNS
    assert memory.touched[0] == "pkg3/mod39.py"  # the newest stay exact
    folded = [t for t in memory.touched if t.endswith("files)")]
    assert folded and sum(int(t.split("(")[1].split()[0]) for t in folded) == 40 - (len(memory.touched) - len(folded))


def test_compaction_folds_oldest_paths_by_folder() -> None:
    entries = [f"new/{i}.py" for i in range(20)] + ["src/a.py", "src/b.py", "docs/x.md", "src/ (3 files)"] * 3
    compacted = compact_touched(entries, limit=25, keep_exact=20)
    assert compacted[:20] == entries[:20]
    assert compacted[20:] == ["src/ (15 files)", "docs/ (3 files)"]
    doc = parse_context("# Context\n\n## Touched areas\n\n- a.py\n\n## Recent runs\n\n- r1\n")
    assert (doc.touched, doc.runs) == (["a.py"], ["r1"])
