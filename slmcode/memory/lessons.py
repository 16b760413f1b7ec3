"""MEMORY.md: lessons and pitfalls earlier runs learned, de-duplicated and bounded.

The file is a free-text preamble (users may edit it) followed by a `## Lessons` list that slmcode owns.
A lesson seen again moves to the end, so the bound drops lessons that stopped recurring, not the useful ones.
Every later run puts these lessons in every prompt, so one must earn its place: `lesson_problem` turns away a
model's echo of its instructions or schema ("The 3 short lessons you requested."), talk about itself, and
advice that names none of the run's files or commands. Each lesson has a short stable id for `memory drop`.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

LESSONS_HEADING = "## Lessons"
MAX_LESSONS = 40
MAX_LESSON_CHARS = 300
MIN_LESSON_WORDS = 4
# A model talking about the request or its answer instead of the repository.
META_TALK = re.compile(
    r"\b(you (requested|asked)|as requested|here (are|is)|lessons?\b.*\b(requested|below|above)|short lessons?|"
    r"as an ai|language model|i (cannot|can't|am unable)|no lessons?|this request|json|schema)\b",
    re.IGNORECASE,
)
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


def lesson_id(lesson: str) -> str:
    """Six hex digits from the lesson's key: stable while the lesson's words stay the same."""
    return hashlib.sha256(lesson_key(lesson).encode()).hexdigest()[:6]


def _command_head(command: str) -> str:
    """A command's program and its leading words up to the first option: `python -m pytest -q -k x` ->
    `python -m pytest`, so a lesson about the test command counts whatever options it names."""
    words: list[str] = []
    for word in command.split():
        if word.startswith("-") and word != "-m":
            break
        words.append(word)
    return " ".join(words) if len(words) >= 2 else ""


def _mentions(lesson: str, ground: str) -> bool:
    ground = ground.strip().strip("`").lower()
    if not ground:
        return False
    text = lesson.lower()
    if ground in text:
        return True
    if " " in ground:
        head = _command_head(ground)
        return bool(head) and head in text
    name = ground.rsplit("/", 1)[-1]
    return len(name) > 3 and "." in name and name in text


def lesson_problem(lesson: str, grounds: Sequence[str]) -> str | None:
    """Why a lesson must not go into MEMORY.md, or None. `grounds`: the run's file paths and commands; a lesson
    names at least one of them (a path, a file name, a command), else it is advice about nothing in particular."""
    text = clean_lesson(lesson)
    if len(text.split()) < MIN_LESSON_WORDS:
        return "too short to teach anything"
    if META_TALK.search(text):
        return "talks about the request or the answer, not the repository"
    if not any(_mentions(text, g) for g in grounds):
        return "names none of the run's files or commands"
    return None


def drop_lesson(text: str, lesson_id_: str) -> tuple[str, str | None]:
    """MEMORY.md without the lesson whose id is `lesson_id_` (or a unique prefix of it), and that lesson."""
    preamble, lessons = parse_memory(text)
    matches = [lesson for lesson in lessons if lesson_id(lesson).startswith(lesson_id_.lower())]
    if len(matches) != 1 or not lesson_id_:
        return text, None
    return render_memory(preamble, [lesson for lesson in lessons if lesson != matches[0]]), matches[0]
