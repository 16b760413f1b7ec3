"""The aider-like peer agent: the protocol of aider's own benchmark, which is what many users of small models
pick instead of an agent. The files to change are sent whole in the prompt, the model answers in text in one
of aider's edit formats (`whole`: each changed file whole; `diff`: search/replace blocks, eval/aider_diff.py),
the files are written, the tests run, and a failing run is told the test output once. No tools are offered to
the model; it writes through the same ws_* tools as the other agents (so the same permission layer and
sandbox), and a reply with no edit, or a block that does not apply, is a malformed response."""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from slmcode.config import load_settings
from slmcode.eval import aider_diff
from slmcode.eval.harness import AgentRun
from slmcode.eval.plain_loop import ask
from slmcode.eval.prompts import (
    AIDER_DIFF_SYSTEM,
    AIDER_FILE,
    AIDER_FILES,
    AIDER_FILES_OK,
    AIDER_RETRY,
    AIDER_SYSTEM,
)
from slmcode.providers.roles import RoleTable
from slmcode.tools.context import ToolContext
from slmcode.tools.registry import EDIT, READ, SHELL, WRITE
from slmcode.tools.toolset import make_tools, run_tool_call

# A path alone on its line, then a fenced block: the whole file (aider's whole format).
FILE_BLOCK = re.compile(r"^[ \t]*`?([\w./-]+\.\w+)`?[ \t]*\n```[^\n]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
PASSED = re.compile(r"\[exit code 0\]\s*$")
# Answers told the blocks that failed, per try after the first answer (aider's Coder.max_reflections).
MAX_REFLECTIONS = 3


def file_blocks(text: str) -> list[tuple[str, str]]:
    """(path, whole text) for each file block of an answer, in order."""
    return [(m.group(1).lstrip("./"), m.group(2)) for m in FILE_BLOCK.finditer(text)]


def _call(tools: Sequence[Any], name: str, args: dict[str, Any]) -> str:
    result = run_tool_call(tools, {"name": name, "args": args, "id": uuid.uuid4().hex, "type": "tool_call"})
    return str(result.content)


# ws_read's numbered lines, and the line it ends a cut page with (tools/prompts.py READ_CUT).
_NUMBERED = re.compile(r"^ *\d+\t(.*)$", re.MULTILINE)
_CUT = re.compile(r"^\[output cut at line \d+; continue with offset=(\d+)\]$", re.MULTILINE)


def _read(tools: Sequence[Any], path: str) -> str:
    """A file's whole text through ws_read (inside the wall), page after page as ws_read cuts a long file;
    "" when it does not exist. Aider sends the whole file: a first page alone would be all the model sees, and
    the edit of the whole file would then miss."""
    lines: list[str] = []
    offset = 1
    while True:
        body = _call(tools, READ, {"path": path, "offset": offset, "limit": 100000})
        lines += [m.group(1) + "\n" for m in _NUMBERED.finditer(body)]
        cut = _CUT.search(body)
        if cut is None or int(cut.group(1)) <= offset:
            return "".join(lines)
        offset = int(cut.group(1))


def _files_text(tools: Sequence[Any], files: Sequence[str]) -> str:
    """The files as aider sends them: whole, with their paths."""
    parts = [AIDER_FILE.format(path=path, text=_read(tools, path)) for path in files]
    return AIDER_FILES.format(files="\n".join(parts))


def _write_whole(tools: Sequence[Any], path: str, text: str) -> None:
    """A file replaced whole: ws_write creates a new one; an existing one is one ws_edit of all its text."""
    current = _read(tools, path).rstrip("\n")
    if not current:
        _call(tools, WRITE, {"path": path, "content": text})
    elif current != text.rstrip("\n"):
        _call(tools, EDIT, {"path": path, "old_str": current, "new_str": text.rstrip("\n")})


def run_aider(
    prompt: str,
    workspace: Path,
    files: Sequence[str],
    test_command: str,
    settings: dict[str, Any],
    *,
    retry: bool,
    edit_format: str = "whole",
) -> AgentRun:
    """Each try one reply (in `diff`, plus up to MAX_REFLECTIONS more told the blocks that failed), its files
    written; with `retry`, the tests run and a failure is told back once. Every request lays the chat out as
    aider does: the system text, the earlier tries, the files as they are now, then this try's messages."""
    live = load_settings(workspace, flags=settings).settings
    ctx = ToolContext(
        workspace=workspace, settings=live, run_id="aider-like", task_id="aider-like", allowed_commands=[test_command]
    )
    tools = make_tools(ctx)
    model = RoleTable(live).client("worker")
    system = SystemMessage(AIDER_DIFF_SYSTEM if edit_format == "diff" else AIDER_SYSTEM)
    done: list[BaseMessage] = []
    current: list[BaseMessage] = [HumanMessage(prompt)]
    record = AgentRun(outcome="answered")
    for _ in range(2 if retry else 1):
        for _reflection in range(1 + (MAX_REFLECTIONS if edit_format == "diff" else 0)):
            files_now = [HumanMessage(_files_text(tools, files)), AIMessage(AIDER_FILES_OK)]
            answer = ask(model, [system, *done, *files_now, *current], record)
            if answer is None:
                return record
            current.append(answer)
            reflection = _apply(tools, str(answer.content), edit_format, record)
            if not reflection:
                break
            current.append(HumanMessage(reflection))
        if not retry:
            break
        output = _call(tools, SHELL, {"command": test_command})
        if PASSED.search(output):
            break
        done, current = [*done, *current], [HumanMessage(AIDER_RETRY.format(output=output[-8000:]))]
    return record


def _apply(tools: Sequence[Any], text: str, edit_format: str, record: AgentRun) -> str:
    """Write an answer's edits; the reflection to send back ("" for none). A reply with no edit at all, or with a
    block that did not apply, counts as a malformed response."""
    if edit_format == "diff":
        done = aider_diff.apply(
            text,
            edit=lambda path, old, new: _call(tools, EDIT, {"path": path, "old_str": old, "new_str": new}),
            write=lambda path, content: _call(tools, WRITE, {"path": path, "content": content}),
            read=lambda path: _read(tools, path),
        )
        record.signals.malformed_calls += done.malformed or not done.blocks
        return done.reflection
    blocks = file_blocks(text)
    record.signals.malformed_calls += not blocks
    for path, whole in blocks:
        _write_whole(tools, path, whole)
    return ""
