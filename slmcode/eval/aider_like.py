"""The aider-like peer agent: the protocol of aider's own benchmark, which is what many users of small models
pick instead of an agent. The files to change are sent whole in the prompt, the model answers in text with
each changed file whole (aider's "whole" edit format), the files are written, the tests run, and a failing run
is told the test output once. No tools are offered to the model; it writes through the same ws_* tools as the
other agents (so the same permission layer and sandbox), and a reply with no file block is a malformed edit."""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from slmcode.config import load_settings
from slmcode.eval.harness import AgentRun
from slmcode.eval.plain_loop import ask
from slmcode.eval.prompts import AIDER_FILE, AIDER_FILES, AIDER_RETRY, AIDER_SYSTEM
from slmcode.providers.roles import RoleTable
from slmcode.tools.context import ToolContext
from slmcode.tools.registry import EDIT, READ, SHELL, WRITE
from slmcode.tools.toolset import make_tools, run_tool_call

# A path alone on its line, then a fenced block: the whole file (aider's whole format).
FILE_BLOCK = re.compile(r"^[ \t]*`?([\w./-]+\.\w+)`?[ \t]*\n```[^\n]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
PASSED = re.compile(r"\[exit code 0\]\s*$")


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
    prompt: str, workspace: Path, files: Sequence[str], test_command: str, settings: dict[str, Any], *, retry: bool
) -> AgentRun:
    """One reply, its files written; with `retry`, the tests run and a failure is told back once."""
    live = load_settings(workspace, flags=settings).settings
    ctx = ToolContext(
        workspace=workspace, settings=live, run_id="aider-like", task_id="aider-like", allowed_commands=[test_command]
    )
    tools = make_tools(ctx)
    model = RoleTable(live).client("worker")
    messages: list[BaseMessage] = [
        SystemMessage(AIDER_SYSTEM),
        HumanMessage(_files_text(tools, files) + "\n" + prompt),
    ]
    record = AgentRun(outcome="answered")
    for _ in range(2 if retry else 1):
        answer = ask(model, messages, record)
        if answer is None:
            break
        blocks = file_blocks(str(answer.content))
        record.signals.malformed_calls += not blocks
        for path, text in blocks:
            _write_whole(tools, path, text)
        if not retry:
            break
        output = _call(tools, SHELL, {"command": test_command})
        if PASSED.search(output):
            break
        messages += [answer, HumanMessage(AIDER_RETRY.format(output=output[-8000:]))]
    return record
