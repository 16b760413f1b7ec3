"""Every text the tools show a model: tool descriptions, argument descriptions, error templates.

Small models have small windows, so each description is one short line. Every error starts with "Error:"
and names the fix (LangGraph ToolNode style), so the model can act on it in its next turn.
"""

from __future__ import annotations

# Tool descriptions (what the model reads in the tool list). Every request carries them, so each says only what
# the tool's name and arguments do not: an argument whose name says it all has no description. The tool
# contract (nodes/prompts.py) says once that paths are relative to the repository root.
WS_READ = "Read a text file; lines come back numbered."
WS_LIST = "List files and folders under a folder."
WS_SEARCH = "Search file contents with a regular expression; returns path:line: text."
WS_WRITE = "Create a NEW file. To change an existing file use ws_edit."
WS_EDIT = "Replace one exact, unique snippet of a file you have read with new text."
# ws_write in the `whole` edit format (tools/editformat.py): the one way to change a file.
WS_WRITE_WHOLE = "Write a file's whole text: create a new file, or rewrite one you have read, keeping all it defines."
WS_SHELL = "Run one whitelisted command (tests, build, lint, read-only git)."
WS_SKILL = "Show a skill card's full body."

# Argument descriptions, only where the name does not say it.
ARG_OFFSET = "First line, 1-based."
ARG_GLOB = "e.g. *.py or src/**/*.py"
ARG_PATTERN = "RE2 syntax: no lookaround or backreferences."
ARG_CONTENT_WHOLE = "Every line of the file, not only the changed part."
ARG_OLD = "Exact text copied from ws_read without line numbers; must occur once."

# Error templates: tool calls.
UNKNOWN_TOOL = "Error: {name} is not a valid tool, try one of [{tools}]."
BAD_ARGUMENTS = (
    "Error: invalid arguments for {name}: {problems}\nExpected arguments: {schema}\nPlease fix your mistakes."
)
UNPARSED_ARGUMENTS = (
    "Error: the arguments for {name} are not a JSON object: {raw}\nExpected arguments: {schema}\n"
    "Please fix your mistakes."
)
TOOL_CRASHED = "Error: {name} failed: {error}\nPlease fix the error and try again, or try another approach."

# Error templates: containment.
NOT_A_DIR = "Error: {path} is not a folder."
BINARY_FILE = "Error: {path} is a binary file ({size} bytes); only text files can be read or edited."
TOO_BIG = "Error: {path} is {size} bytes, over the {limit}-byte limit; read it in slices with offset and limit."

# Error templates: reading and editing.
PAST_END = "Error: {path} has {total} lines; offset {offset} is past the end."
WRITE_EXISTS = "Error: {path} already exists; use ws_edit to change it (ws_write only creates new files)."
READ_FIRST = "Error: read {path} with ws_read before editing it."
PATH_HINT = " Did you mean {paths}?"  # after a path that does not exist (pathhint.py)
EMPTY_OLD = "Error: old_str is empty; give the exact text to replace (ws_write creates new files)."
SAME_TEXT = "Error: old_str and new_str are identical; nothing would change."
EDIT_NOT_FOUND = (
    "Error: old_str was not found in {path}. The closest lines are:\n{nearest}\n"
    "Copy the text exactly as ws_read shows it (without the line numbers) and try again."
)
# A miss whose new_str the file already holds: a small model re-sending an edit it made turns earlier.
EDIT_ALREADY_MADE = (
    "Error: old_str was not found in {path}, but new_str already is (line {line}): this edit was made before. "
    "If a check still fails, the code needs a different change: read the failure and edit what {path} holds now."
)
# ws_edit's near misses (tools/nearmiss.py): applied, and the result says how old_str was matched.
EDIT_LOOSE = "[old_str matched line {line} with {how}; new_str was applied there{reindent}]"
LOOSE_TRAILING = "trailing spaces ignored"
LOOSE_INDENT = "its indentation shifted"
LOOSE_REINDENT = ", re-indented the same way"
# The `auto` edit format's offer, once old_str has missed edit_format_misses times on one file.
EDIT_OFFER_WHOLE = (
    "Error: old_str was not found in {path} ({misses} misses on this file). Rewrite the whole file instead: call "
    "ws_write with path {path} and its complete new text, keeping every function and class the task does not ask "
    "you to remove. The current text of {path}:\n{text}"
)
REWRITE_TEXT_CUT = "[cut here: lines {next}-{total} not shown; read them with ws_read offset={next} before rewriting]"
REWRITE_READ_FIRST = "Error: read {path} with ws_read before rewriting it: a rewrite must keep what you have not seen."
REWRITE_DROPS = (
    "Error: not written: this rewrite of {path} drops {names}, which the task does not ask to remove. Write the "
    "whole file again with them kept."
)
EDIT_NOT_UNIQUE = (
    "Error: old_str occurs {count} times in {path} (lines {lines}); include more surrounding lines so it occurs once."
)
NO_SKILL = "Error: no skill card named {name!r}; use a name from the skill list you were given."
ENCODING_NOTE = "[{path} is not UTF-8: shown as {encoding}; edits keep that encoding]"
NOT_ENCODABLE = (
    "Error: {path} is {encoding} text, which cannot hold {chars}; write those characters as the language's "
    "escapes instead."
)

# Error templates: the shell.
SHELL_DENIED = "Error: shell commands are disabled here (shell_permission: deny)."
SHELL_DECLINED = "Error: the user declined to run: {command}"
SHELL_NO_APPROVER = "Error: running {command} needs approval and no one can give it; try without the shell."
SHELL_REFUSED = "Error: command refused: {reason}. Allowed commands: {allowed}."
SHELL_EMPTY = "Error: empty command."
SHELL_NOT_FOUND = "Error: {program} is not installed here."
SHELL_NO_SANDBOX = (
    "Error: command refused: {reason}. No OS sandbox can run here ({why}), so only read-only commands run: {allowed}."
)
SHELL_UNDID_PROTECTED = (
    "[removed {paths}: commands may not create .git or .slmcode folders, or folders shaped like a git directory]"
)
SHELL_CHANGED = "[files this command changed: {paths}{more}]"
SHELL_CHANGED_MORE = " and {more} more (ws_shell `git status` lists them)"

# Results of writes, by permission mode.
WROTE = "{action} {path} ({lines} lines)."
DRY_RUN = "dry-run: not written. {action} {path} recorded as patch {id}; later reads show it, the disk does not."
REVIEW = "review: staged as patch {id} for {path}; not on disk until the user runs `slmcode apply {id}`."
STAGED_NOTE = "[{path}: {mode} patch {id} is shown here; it is not on disk, so commands do not see it]"

# Output caps.
OUTPUT_CUT = "\n[... {cut} bytes cut ...]\n"
READ_CUT = "[output cut at line {last}; continue with offset={next}]"
MORE_LINES = "[{shown} of {total} lines shown; continue with offset={next}]"
LIST_CUT = "[{more} more not shown; narrow with a glob]"
SEARCH_CUT = "[stopped at {limit} matches; narrow the pattern or the glob]"
SEARCH_STOPPED = "[search stopped after {files} files ({why}); narrow it with path or glob]"
SEARCH_SKIPPED = "[not searched, over {limit} bytes: {paths}; read them in slices with ws_read]"
NO_MATCHES = "No matches for {pattern}."
EMPTY_LISTING = "No files match."
