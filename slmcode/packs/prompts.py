"""The fixed text of a TaskPack: section headings, cut markers and labels. Change here, nowhere else;
tests/packs/snapshots holds a rendered system message and tests/packs/test_excerpts.py the code lines, so a change
is never accidental."""

from __future__ import annotations

# Section headings, in render order. Stable sections first (the system message), volatile last.
HEADINGS: dict[str, str] = {
    "system": "",
    "tools": "## Tools",
    "instructions": "## Project instructions",
    "skills": "## Skills",
    "map": "## Repository map",
    "scoped_instructions": "## Instructions for the files in scope",
    "skill_bodies": "## Skills for this task",
    "memory": "## Project memory",
    "task_map": "## Repository map for this task",
    "excerpts": "## Code",
    "task": "## Task",
}

CUT_MARKER = "[... {count} lines cut: budget]"
SECTION_CUT_MARKER = "[... section cut: budget]"
NO_MAP_NOTE = "(no repository map: {reason})"
INSTRUCTION_SOURCE = "### {path}"
SKILL_CARD = "- {name}: {description}"
SKILL_CARDS_HINT = "Read a skill in full with ws_skill(name)."
SKILL_BODY = "### Skill: {name}\n{body}"
MEMORY_HIT = "### {source}\n{text}"
FILE_HEADER = "### {path} ({total} lines)"  # once per file: every line carries its own number
WINDOW_GAP = "..."  # between two windows of a file; a code line always starts with its number
SIGNATURES_HEADER = "### {path} ({total} lines)"
SIGNATURE_LINE = "{line}\t{signature}"
CODE_LINE = "{line}\t{text}"  # as ws_read prints lines (blank lines left blank); "N| " would cost 8% more, padding 13%
CODE_NOTE = "Line numbers are the file's own: pass them to ws_read(offset) to read more."
TASK_QUERY = "{query}"
TASK_TITLE = "Task {id}: {title}"
CRITERIA_HEADER = "Acceptance criteria:"
CRITERION_LINE = "- [{priority}] {text}"
CRITERION_VERIFY = "  verify: `{verify}`"

# What `slmcode pack` shows when no node supplies its own role prompt.
PREVIEW_SYSTEM_PROMPT = (
    "You are the {role} of a small coding team working in one repository. Read the project instructions, "
    "the map and the code below; answer only about this repository."
)
