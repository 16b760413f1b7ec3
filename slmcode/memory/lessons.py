"""MEMORY.md: lessons and pitfalls earlier runs learned, de-duplicated and bounded.

The file is a free-text preamble (users may edit it) followed by a `## Lessons` list that slmcode owns.
A lesson seen again moves to the end, so the bound drops lessons that stopped recurring, not the useful ones.
"""

from __future__ import annotations

import re

MEMORY_FILE = "MEMORY.md"
LESSONS_HEADING = "## Lessons"
MAX_LESSONS = 40
MAX_LESSON_CHARS = 300
DEFAULT_PREAMBLE = (
    "# Memory\n\n"
    "Lessons and pitfalls from earlier runs, oldest first. slmcode keeps the last "
    f"{MAX_LESSONS} under the heading below; text above it is yours and is kept as written.\n"
)


def lesson_key(lesson: str) -> str:
    """Two lessons that differ only in case, punctuation or spacing are the same lesson."""
    # Dots and slashes stay inside words (paths, versions) but not at their ends (sentence punctuation).
    words = (w.strip("./-") for w in re.findall(r"[a-z0-9_./-]+", lesson.lower()))
    return " ".join(w for w in words if w)


def clean_lesson(lesson: str) -> str:
    """One line, bounded: a lesson is a bullet, never a paragraph."""
    text = " ".join(lesson.split()).removeprefix("- ").strip()
    if len(text) > MAX_LESSON_CHARS:
        text = text[: MAX_LESSON_CHARS - 1].rstrip() + "…"
    return text


def parse_memory(text: str) -> tuple[str, list[str]]:
    """(preamble, lessons). A file without the heading is all preamble."""
    head, found, tail = text.partition(LESSONS_HEADING)
    if not found:
        return text, []
    lessons = [line[2:].strip() for line in tail.splitlines() if line.startswith("- ") and line[2:].strip()]
    return head, lessons


def merge_lessons(existing: list[str], new: list[str], limit: int = MAX_LESSONS) -> list[str]:
    """Existing then new, de-duplicated with the latest mention last, keeping the newest `limit`."""
    by_key: dict[str, str] = {}
    for lesson in [*existing, *new]:
        text = clean_lesson(lesson)
        key = lesson_key(text)
        if not key:
            continue
        by_key.pop(key, None)  # re-insert so a repeated lesson counts as recent
        by_key[key] = text
    return list(by_key.values())[-limit:]


def render_memory(preamble: str, lessons: list[str]) -> str:
    head = preamble.rstrip() or DEFAULT_PREAMBLE.rstrip()
    body = "".join(f"- {lesson}\n" for lesson in lessons)
    return f"{head}\n\n{LESSONS_HEADING}\n\n{body}"


def updated_memory(text: str, new_lessons: list[str]) -> str:
    """MEMORY.md after learning `new_lessons` (pure)."""
    preamble, lessons = parse_memory(text)
    return render_memory(preamble, merge_lessons(lessons, new_lessons))
