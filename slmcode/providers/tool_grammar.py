"""Tool arguments a tiny model cannot get wrong: the embedded server turns each tool's JSON schema into the
grammar its answer is decoded with, so a schema that lists the only sensible values makes every other value
impossible to emit.

SmolLM2-135M, asked to read calc/ops.py, called ws_read({"path": "{path}"}) and ws_write({"path": "{path}",
"content": "{content}"}): it copies the placeholders of the tool list. The request itself says which files are
in play: the pack shows each as `### calc/ops.py (16 lines)`. So, on requests to llama-cpp-python's server:
- ws_read's and ws_edit's `path` is one of the files the request shows (an enum);
- ws_edit's `old_str` is one of their anchors: a top-level `def`/`class` line or the last line, each occurring
  once in its file (an enum: it always matches; new_str repeats it and adds the new code before or after);
- ws_write's `path` is a plain relative file name (a pattern: no braces, no spaces, an extension).
A request that shows no file is left as it is.
"""

from __future__ import annotations

import copy
import re
from typing import Any

SHOWN_FILE = re.compile(r"^### (\S+) \((\d+) lines\)$", re.MULTILINE)
NUMBERED = re.compile(r"^(\d+)\t(.*)$")
NEW_FILE_PATTERN = r"^[A-Za-z0-9_][A-Za-z0-9_./-]*\.[A-Za-z0-9]+$"
MAX_LINES = 12  # an enum rides in the prompt too (the template lists the schemas): keep it short


def shown_files(texts: list[str]) -> dict[str, list[str]]:
    """path -> its lines as shown (numbers dropped), from the pack's `### path (N lines)` sections."""
    files: dict[str, list[str]] = {}
    for text in texts:
        for match in SHOWN_FILE.finditer(text):
            lines = files.setdefault(match.group(1), [])
            for line in text[match.end():].lstrip("\n").splitlines():
                numbered = NUMBERED.match(line)
                if numbered is None:
                    if line.startswith(("###", "## ")):
                        break
                    continue
                lines.append(numbered.group(2))
    return files


def anchor_lines(files: dict[str, list[str]]) -> list[str]:
    """Where a new function goes: each file's top-level `def`/`class` lines and its last line, those that occur
    once in their file (an old_str sure to match exactly once). Few on purpose: the enum costs prompt tokens."""
    seen: list[str] = []
    for lines in files.values():
        code = [line for line in lines if line.strip()]
        anchors = [line for line in code if line.startswith(("def ", "class ", "async def "))] + code[-1:]
        seen += [line for line in anchors if lines.count(line) == 1 and line not in seen]
    return seen[:MAX_LINES]


def _texts(messages: list[dict[str, Any]]) -> list[str]:
    return [m["content"] for m in messages if isinstance(m.get("content"), str)]


def constrain_tools(tools: list[dict[str, Any]], messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tools with their path/old_str arguments narrowed to what the request shows; the input is untouched."""
    files = shown_files(_texts(messages))
    if not files:
        return tools
    paths, lines = sorted(files), anchor_lines(files)
    out = copy.deepcopy(tools)
    for tool in out:
        function = tool.get("function") or {}
        props = (function.get("parameters") or {}).get("properties") or {}
        name = function.get("name")
        if name in ("ws_read", "ws_edit") and "path" in props:
            props["path"] = {**props["path"], "enum": paths}
        if name == "ws_edit" and "old_str" in props and lines:
            props["old_str"] = {**props["old_str"], "enum": lines}
        if name == "ws_write" and "path" in props:
            props["path"] = {**props["path"], "pattern": NEW_FILE_PATTERN}
    return out
