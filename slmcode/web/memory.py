"""Memory: the lessons of MEMORY.md, the learned skills and the session snapshots, each with Delete.

Every delete runs under the memory lock the runs write with (a lesson: MEMORY.md rewritten without it, the
way lessons.render_memory writes it; a skill: its folder; a session: its file), and SKILLS.md is regenerated from the
folder as the learn phase does, so it never names a deleted skill.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from slmcode.memory.files import memory_lock, read_text
from slmcode.memory.flywheel import read_memory
from slmcode.memory.lessons import lesson_id, parse_memory, render_memory
from slmcode.memory.skills_store import learned_skills, render_index
from slmcode.store.atomic import atomic_write_text
from slmcode.store.paths import MEMORY_FILE, SKILLS_INDEX
from slmcode.store.sessions import list_sessions, snapshot_path
from slmcode.web.html import esc, form_button, page, table
from slmcode.web.patches import notice_html


def memory_page(workspace: Path, token: str, notice: str = "", error: bool = False) -> str:
    snapshot = read_memory(workspace)
    lessons = [
        [
            esc(lesson_id(text)),
            esc(text),
            form_button(
                "/memory/lessons/delete",
                "Delete",
                token,
                {"id": lesson_id(text)},
                danger=True,
                what=f"Delete lesson {lesson_id(text)}",
            ),
        ]
        for text in snapshot.lessons
    ]
    skills = [
        [
            esc(s.name),
            esc(s.description),
            form_button(
                "/memory/skills/delete",
                "Delete",
                token,
                {"name": s.path.parent.name},
                danger=True,
                what=f"Delete skill {s.name}",
            ),
        ]
        for s in snapshot.skills
    ]
    sessions = [
        [
            esc(s.run_id),
            esc(s.created_at.strftime("%Y-%m-%d %H:%M")),
            esc(s.query),
            esc(s.summary),
            form_button(
                "/memory/sessions/delete",
                "Delete",
                token,
                {"id": s.run_id},
                danger=True,
                what=f"Delete session {s.run_id}",
            ),
        ]
        for s in list_sessions(workspace)
    ]
    body = (
        f"<h1>Memory</h1>{notice_html(notice, error=error)}"
        "<h2>Lessons (.slmcode/MEMORY.md)</h2>"
        + (table(["id", "lesson", ""], lessons, cls="stack") if lessons else "<p class=muted>No lessons yet.</p>")
        + "<h2>Learned skills</h2>"
        + (
            table(["skill", "description", ""], skills, cls="stack")
            if skills
            else "<p class=muted>No learned skills.</p>"
        )
        + "<h2>Sessions</h2>"
        + (
            table(["run", "when", "task", "summary", ""], sessions, cls="stack")
            if sessions
            else "<p class=muted>No sessions.</p>"
        )
    )
    return page("Memory", body, active="/memory")


def delete_lesson(workspace: Path, ident: str) -> tuple[str, bool]:
    """Drop the lesson whose id is `ident` (the full id the page shows), under the memory lock."""
    with memory_lock(workspace) as state:
        preamble, lessons = parse_memory(read_text(state / MEMORY_FILE))
        kept = [lesson for lesson in lessons if lesson_id(lesson) != ident]
        if not ident or len(kept) != len(lessons) - 1:
            return f"no single lesson has id {ident}", True
        atomic_write_text(state / MEMORY_FILE, render_memory(preamble, kept))
    dropped = next(lesson for lesson in lessons if lesson_id(lesson) == ident)
    return f"dropped {ident}: {dropped}", False


def delete_skill(workspace: Path, folder_name: str) -> tuple[str, bool]:
    with memory_lock(workspace) as state:
        skills = {s.path.parent.name: s for s in learned_skills(state)}
        skill = skills.get(folder_name)
        if skill is None:
            return f"no learned skill {folder_name}", True
        shutil.rmtree(skill.path.parent)
        atomic_write_text(state / SKILLS_INDEX, render_index(learned_skills(state), state))
    return f"deleted skill {skill.name}", False


def delete_session(workspace: Path, run_id: str) -> tuple[str, bool]:
    known = {s.run_id for s in list_sessions(workspace)}
    if run_id not in known:
        return f"no session {run_id}", True
    with memory_lock(workspace):
        Path(snapshot_path(workspace, run_id)).unlink(missing_ok=True)
    return f"deleted session {run_id}", False
