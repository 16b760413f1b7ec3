"""Text the model reads from the compaction layer: markers, the resume message and the compactor's prompt.

Kept here so wording changes never touch logic, and so every byte the model sees is reviewable in one place.
"""

from __future__ import annotations

# What an elided or tombstoned tool result becomes. Fixed bytes: the KV-cache prefix depends on it.
ELIDED_TOOL_RESULT = "[tool result elided]"

# The middle of a head/tail-collapsed block.
COLLAPSED_MARKER = "[... {count} lines collapsed ...]"
COLLAPSED_CHARS_MARKER = "[... {count} characters collapsed ...]"

# A call whose tool never answered (crash, interrupt, kill): the model must see that it did not run.
SYNTHETIC_TOOL_ERROR = (
    "Error: the call to {name} was interrupted before it returned a result; it may not have run. "
    "Call it again if you still need it."
)

# The resume block is appended to the task message, so user and assistant turns still alternate.
RESUME_TEMPLATE = """{task}

<resume>
Earlier turns of this conversation were compacted to fit the context window. The facts below are what they
established. Continue the task from here and do not repeat finished work.
{sections}
</resume>"""

RESUME_SECTION = """<{kind}>
{body}
</{kind}>"""

CONDENSED_HEADER = "One line per earlier message, oldest first:"
CONDENSED_OMITTED = "({count} earlier lines omitted)"

# The compactor role turns old turns into a structured brief. The headings are checked on the way back.
BRIEF_HEADINGS = ("## Goal", "## Progress", "## Key facts", "## Next step")

COMPACTOR_SYSTEM = """You compress the history of a coding agent's work into a brief it can resume from.
Write only the brief: no greeting, no preamble, no closing remarks. Use exactly these headings, in order:
## Goal
## Progress
## Key facts
## Next step
Under each heading write short bullet points. Keep every file path, command, exit code, error message and
decision that later work may need. Drop tool output that is no longer relevant."""

COMPACTOR_PROMPT = """{previous}Conversation to compress, oldest first:
{transcript}

Write the brief now."""

COMPACTOR_PREVIOUS = """The brief written at the previous compaction, to merge into the new one:
{brief}

"""

# Tool-output offload: what stays in the context when the full text went to the scratch folder.
OFFLOAD_NOTE = (
    "[output shortened: {size} bytes, {lines} lines in full at {path}; read it with ws_read(path, offset, limit)]"
)
OFFLOAD_TAIL_HEADER = "[... last lines ...]"

# A task too long for its share of the window (compact/longtask.py): the run carries this after a preview.
TASK_OFFLOAD_NOTE = (
    "[task shortened: {size} bytes, {lines} lines in full at {path}; read it with ws_read(path, offset, limit)]"
)
