"""The knowledge flywheel: what the learn node writes after a run and the next run reads first.

record_learning merges a run's lessons, touched areas, conventions and summary into .slmcode/ under the
memory lock, every file written atomically; read_memory returns what is there. Both are the API the
graph's learn and context nodes call.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from slmcode.compact.gate import accept_compaction
from slmcode.memory.context_file import merged_context, parse_context, run_entry
from slmcode.memory.files import memory_lock, read_text, sweep_stale_temps
from slmcode.memory.lessons import drop_lesson, parse_memory, updated_memory
from slmcode.memory.skills_store import (
    LEARNED_DIR,
    LearnedSkill,
    learned_skills,
    render_index,
    render_skill,
    skill_slug,
)
from slmcode.store.atomic import atomic_write_text
from slmcode.store.paths import CONTEXT_FILE, MEMORY_FILE, SKILL_FILE, SKILLS_INDEX, state_dir
from slmcode.store.sessions import SessionSnapshot, write_snapshot

Convention = tuple[str, str, str]  # (name, description, body)

# Every file written under the memory lock, as globs under .slmcode/ (for sweeping a killed run's temps).
LOCKED_FILES = [MEMORY_FILE, CONTEXT_FILE, SKILLS_INDEX, f"{LEARNED_DIR.as_posix()}/*/{SKILL_FILE}", "sessions/*.json"]


@dataclass(frozen=True)
class MemorySnapshot:
    """What earlier runs left in .slmcode/: the raw files and their parsed lists."""

    memory_text: str = ""
    context_text: str = ""
    skills_text: str = ""
    lessons: list[str] = field(default_factory=list)
    touched: list[str] = field(default_factory=list)
    recent_runs: list[str] = field(default_factory=list)
    skills: list[LearnedSkill] = field(default_factory=list)

    @property
    def is_empty(self) -> bool:
        return not (self.lessons or self.touched or self.skills)


def _write_if_changed(path: Path, text: str, written: list[Path]) -> None:
    if read_text(path) != text:
        atomic_write_text(path, text)
        written.append(path)


def _write_conventions(state: Path, conventions: list[Convention], written: list[Path]) -> list[str]:
    names: list[str] = []
    for name, description, body in conventions:
        slug = skill_slug(name)
        names.append(slug)
        _write_if_changed(state / LEARNED_DIR / slug / SKILL_FILE, render_skill(slug, description, body), written)
    return names


def record_learning(
    workspace: Path | str,
    *,
    run_id: str,
    query: str,
    lessons: list[str],
    touched: list[str],
    conventions: list[Convention],
    summary: str,
    now: datetime | None = None,
) -> list[Path]:
    """Merge one run's knowledge into the workspace's memory; returns the files actually written.

    Holds the memory lock throughout, so concurrent runs merge one after the other; each file is
    replaced atomically, so a run killed at any point leaves every file whole (old or new).
    """
    now = now or datetime.now(UTC)
    written: list[Path] = []
    with memory_lock(workspace) as state:
        sweep_stale_temps(state, LOCKED_FILES)
        memory_path = state / MEMORY_FILE
        _write_if_changed(memory_path, updated_memory(read_text(memory_path), lessons), written)

        context_path = state / CONTEXT_FILE
        original = read_text(context_path)
        line = run_entry(run_id, now.date().isoformat(), summary, query)
        merged, compacted = merged_context(original, touched=touched, run_line=line)
        # The folding goes through the same gate as a model's compaction; refused, the merged text stays.
        chosen = compacted if compacted == merged or accept_compaction(merged, compacted).accepted else merged
        _write_if_changed(context_path, chosen, written)

        skill_names = _write_conventions(state, conventions, written)
        _write_if_changed(state / SKILLS_INDEX, render_index(learned_skills(state), state), written)

        snapshot = SessionSnapshot(
            run_id=run_id,
            thread_id=run_id,
            created_at=now,
            query=query,
            summary=summary,
            lessons=lessons,
            touched=touched,
            skills=skill_names,
        )
        written.append(write_snapshot(workspace, snapshot))
    return written


def read_memory(workspace: Path | str) -> MemorySnapshot:
    """The memory files as they are now (no lock: every file is replaced whole, so reads never tear)."""
    state = state_dir(workspace)
    memory_text = read_text(state / MEMORY_FILE)
    context_text = read_text(state / CONTEXT_FILE)
    context = parse_context(context_text)
    return MemorySnapshot(
        memory_text=memory_text,
        context_text=context_text,
        skills_text=read_text(state / SKILLS_INDEX),
        lessons=parse_memory(memory_text)[1],
        touched=context.touched,
        recent_runs=context.runs,
        skills=learned_skills(state),
    )


def forget_lesson(workspace: Path | str, lesson_id: str) -> str | None:
    """Drop one lesson from MEMORY.md by its id (`slmcode memory` lists them); the lesson, or None if no single
    lesson has that id."""
    with memory_lock(workspace) as state:
        path = state / MEMORY_FILE
        text, dropped = drop_lesson(read_text(path), lesson_id)
        if dropped is not None:
            atomic_write_text(path, text)
        return dropped
