"""Tool and argument names as small models misspell them, mapped back only when exactly one fits.

The alias tables name the tools other agents taught these models (read_file, str_replace, bash, ...); an
alias counts only when its target is among the tools actually offered.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from slmcode.tools.registry import EDIT, LIST, READ, SEARCH, SHELL, SKILL, WRITE

NAME_PREFIXES = re.compile(r"^(?:functions|function|tools|tool|default_api|api)[.:]", re.IGNORECASE)
TOOL_ALIASES: dict[str, tuple[str, ...]] = {
    READ: ("read_file", "read", "cat", "open_file", "view_file", "view", "file_read", "get_file"),
    LIST: ("list_files", "list", "ls", "list_dir", "list_directory", "dir", "tree"),
    SEARCH: ("search", "grep", "search_files", "search_code", "find_in_files", "rg"),
    WRITE: ("write_file", "write", "create_file", "create", "new_file", "save_file"),
    EDIT: ("edit_file", "edit", "str_replace", "replace", "replace_in_file", "apply_edit", "modify_file"),
    SHELL: ("run", "bash", "shell", "run_command", "execute", "exec", "terminal", "run_shell", "sh", "cmd"),
    SKILL: ("skill", "get_skill", "read_skill", "load_skill"),
}
ARG_ALIASES: dict[str, tuple[str, ...]] = {
    "path": (
        "file",
        "filepath",
        "file_path",
        "filename",
        "file_name",
        "fname",
        "target",
        "dir",
        "directory",
        "folder",
        "relative_path",
        "target_file",
        "abs_path",
        "absolute_path",
    ),
    "content": ("contents", "text", "data", "body", "file_content", "file_contents", "code", "file_text"),
    "old_str": ("old", "old_string", "old_text", "search", "find", "before", "original", "old_content", "from"),
    "new_str": ("new", "new_string", "new_text", "replace", "replacement", "after", "new_content", "to"),
    "command": ("cmd", "command_line", "shell_command", "script", "bash", "run", "commands"),
    "pattern": ("query", "regex", "search_term", "term", "search", "text", "keyword", "expression"),
    "glob": ("include", "file_pattern", "files", "filter", "mask", "glob_pattern"),
    "offset": ("start", "start_line", "line", "from_line", "line_start", "first_line", "begin"),
    "limit": ("count", "lines", "num_lines", "max_lines", "n", "length", "line_count"),
    "name": ("skill", "skill_name", "card", "id"),
}
CLOSE_MATCH = 0.8


def _squash(name: str) -> str:
    return re.sub(r"[\s\-]+", "_", name.strip().strip("`'\"").strip()).lower()


def _unique_close(name: str, choices: Iterable[str]) -> str | None:
    close = difflib.get_close_matches(name, list(choices), n=2, cutoff=CLOSE_MATCH)
    return close[0] if len(close) == 1 else None


def resolve_tool_name(name: str, tool_names: Iterable[str]) -> str | None:
    """The offered tool `name` means, or None when none fits (or several do)."""
    names = list(tool_names)
    if name in names:
        return name
    bare = NAME_PREFIXES.sub("", _squash(name)).removesuffix("()")
    lowered = {n.lower(): n for n in names}
    for candidate in (bare, "ws_" + bare, bare.removeprefix("ws_")):
        if candidate in lowered:
            return lowered[candidate]
    targets = [target for target, aliases in TOOL_ALIASES.items() if bare in aliases and target in names]
    if len(targets) == 1:
        return targets[0]
    found = _unique_close(bare, lowered)
    return lowered[found] if found else None


def resolve_arg_name(key: str, properties: Iterable[str], taken: set[str]) -> str | None:
    """The schema property an unknown argument key means, when exactly one free property fits."""
    free = [p for p in properties if p not in taken]
    squashed = _squash(key)
    exact = [p for p in free if p.lower() == squashed or p.replace("_", "") == squashed.replace("_", "")]
    if len(exact) == 1:
        return exact[0]
    aliased = [p for p in free if squashed in ARG_ALIASES.get(p, ())]
    if len(aliased) == 1:
        return aliased[0]
    return _unique_close(squashed, free)
