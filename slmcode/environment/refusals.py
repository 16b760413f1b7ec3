"""What a model reads when the workspace refuses a path or a search pattern: the texts of
environment/containment.py and environment/patterns.py, kept apart as every prompt is (snapshot-tested)."""

EMPTY_PATH = "Error: empty path; give a path relative to the workspace root."
OUTSIDE = "Error: {path} is outside the workspace; use a path relative to the workspace root."
SYMLINK_OUT = "Error: {path} is a symlink that points outside the workspace; it cannot be used."
SPECIAL_FILE = "Error: {path} is a {kind}, not a regular file; it cannot be read or written."
PROTECTED = "Error: {path} is inside {folder}, which tools may not change."
NOT_FOUND = "Error: {path} does not exist. ws_list shows what is there."
NOT_A_FILE = "Error: {path} is a folder; ws_list shows its contents."
BAD_REGEX_NOTE = "(pattern is not a valid regular expression, searched as plain text)"
REGEX_UNSUPPORTED = (
    "Error: ws_search cannot run the pattern {pattern}: {reason}. Lookaround and backreferences are not "
    "supported; search for a plainer pattern and check the lines it finds."
)
