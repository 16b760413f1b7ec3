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
No value holding `"` or a backslash is listed (grammar_safe): llama-cpp-python writes it as a grammar llama.cpp
cannot parse, and its server dies.
A request that shows no file is left as it is.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import threading
from collections import OrderedDict
from typing import Any

SHOWN_FILE = re.compile(r"^### (\S+) \((\d+) lines\)$", re.MULTILINE)
NUMBERED = re.compile(r"^(\d+)\t(.*)$")
NEW_FILE_PATTERN = r"^[A-Za-z0-9_][A-Za-z0-9_./-]*[.][A-Za-z0-9]+$"  # [.] not \.: llama.cpp cannot parse "\."
MAX_LINES = 12  # an enum rides in the prompt too (the template lists the schemas): keep it short


def grammar_safe(value: str) -> bool:
    """Whether llama-cpp-python can turn `value` into a GBNF literal: its converter escapes a `"` of the JSON
    text but not the backslash before it, so a value holding `"` or `\\` yields a grammar llama.cpp cannot parse
    ('failed to parse grammar' in the server log), and the server then dies mid-request."""
    return '"' not in value and "\\" not in value


def shown_files(texts: list[str]) -> dict[str, list[str]]:
    """path -> its lines as shown (numbers dropped), from the pack's `### path (N lines)` sections; a path no
    grammar can name (grammar_safe) is left out, so nothing constrains the model to or away from it."""
    files: dict[str, list[str]] = {}
    for text in texts:
        for match in SHOWN_FILE.finditer(text):
            if not grammar_safe(match.group(1)):
                continue
            lines = files.setdefault(match.group(1), [])
            for line in text[match.end() :].lstrip("\n").splitlines():
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
        seen += [line for line in anchors if lines.count(line) == 1 and line not in seen and grammar_safe(line)]
    return seen[:MAX_LINES]


def _texts(messages: list[dict[str, Any]]) -> list[str]:
    return [m["content"] for m in messages if isinstance(m.get("content"), str)]


def constrain_tools(tools: list[dict[str, Any]], messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tools with their path/old_str arguments narrowed to what the request shows; the input is untouched."""
    files = shown_files(_texts(messages))
    if not files:
        return tools
    paths, lines = sorted(files), anchor_lines(files)
    out = [copy.deepcopy(tool) for tool in tools]  # one by one: tools sharing a schema object stay apart
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


# The next step, chosen by the harness for a model that cannot choose it: a worker or corrector whose request
# shows files reads each one it has not read, then edits each one it has not edited, one named tool at a time
# (a named tool_choice is a grammar for that tool's arguments alone); with every shown file edited it is free.
EDITING_ROLES = frozenset({"worker", "corrector"})
READ, EDIT, WRITE = "ws_read", "ws_edit", "ws_write"


def _progress(messages: list[dict[str, Any]]) -> tuple[set[str], set[str]]:
    """Paths read and paths edited by calls that succeeded, from the OpenAI-form conversation."""
    calls: dict[str, tuple[str, str]] = {}
    for message in messages:
        for call in message.get("tool_calls") or []:
            function = call.get("function") or {}
            try:
                args = json.loads(function.get("arguments") or "{}")
            except json.JSONDecodeError:
                args = {}
            calls[str(call.get("id"))] = (str(function.get("name")), str(args.get("path", "")).removeprefix("./"))
    read: set[str] = set()
    edited: set[str] = set()
    for message in messages:
        name, path = calls.get(str(message.get("tool_call_id")), ("", ""))
        if message.get("role") != "tool" or str(message.get("content", "")).startswith("Error"):
            continue
        if name == READ:
            read.add(path)
        elif name in (EDIT, WRITE):
            edited.add(path)
    return read, edited


# A 2K window drops old rounds from the request, and with them the calls that read or edited a file: what each
# conversation (keyed by its opening pack) has done is kept in a StepMemory, which the chat client holds. The role
# table makes one client per role per run, so a second run of the same task in a long-lived process (the
# LangGraph server, the API) starts afresh. After a crash it is empty again: the worker then re-reads a file,
# which changes nothing.
MAX_CONVERSATIONS = 64
TASK_LINE = re.compile(r"^Task \S+: ")


def _conversation_key(messages: list[dict[str, Any]], files: dict[str, list[str]]) -> str:
    """What stays put while old rounds go: the system prompt, the task's id line and the files shown."""
    texts = _texts(messages)
    task_lines = sorted({line for text in texts for line in text.splitlines() if TASK_LINE.match(line)})
    return hashlib.sha256("\n".join([*texts[:1], *task_lines, *sorted(files)]).encode()).hexdigest()


class StepMemory:
    """Paths read and edited per conversation, bounded; one per chat client (so per role per run). The run's
    parallel workers share the client, each under its own task line; the lock keeps their updates whole."""

    def __init__(self) -> None:
        self._done: OrderedDict[str, tuple[set[str], set[str]]] = OrderedDict()
        self._lock = threading.Lock()

    def remembered(self, messages: list[dict[str, Any]], files: dict[str, list[str]]) -> tuple[set[str], set[str]]:
        key = _conversation_key(messages, files)
        now_read, now_edited = _progress(messages)
        with self._lock:
            read, edited = self._done.pop(key, (set(), set()))
            self._done[key] = (read | now_read, edited | now_edited)
            while len(self._done) > MAX_CONVERSATIONS:
                self._done.popitem(last=False)
            return self._done[key]


def next_step(
    tools: list[dict[str, Any]], messages: list[dict[str, Any]], memory: StepMemory
) -> tuple[list[dict[str, Any]], Any] | None:
    """The one tool (narrowed to one file) and the named tool_choice for the next step, or None: model's choice."""
    files = shown_files(_texts(messages))
    if not files:
        return None
    read, edited = memory.remembered(messages, files)
    todo = [path for path in files if path not in edited]
    if not todo:
        return None
    target = todo[0]
    name = EDIT if target in read else READ
    tool = next((t for t in tools if (t.get("function") or {}).get("name") == name), None)
    if tool is None:
        return None
    narrowed = copy.deepcopy(tool)
    props = narrowed["function"].setdefault("parameters", {}).setdefault("properties", {})
    props["path"] = {**props.get("path", {"type": "string"}), "enum": [target]}
    anchors = anchor_lines({target: files[target]})
    if name == EDIT and "old_str" in props and anchors:
        props["old_str"] = {**props["old_str"], "enum": anchors}
    return [narrowed], {"type": "function", "function": {"name": name}}
