"""What a task did, read off its worker conversations: the edits that took effect, the shell commands it ran
with their exit codes, in order, and its final message. The transcript is the task's journal of tool calls:
it survives a resume, and it holds each call's arguments beside its result."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from slmcode.compact.messages import result_failed
from slmcode.tools.registry import SHELL, WRITE, WRITE_TOOLS

EXIT_LINE = re.compile(r"\[exit code (-?\d+)\]|\[timed out, killed \(exit -?\d+\)\]")


@dataclass(frozen=True)
class Edit:
    """One write that took effect: ws_write creates (old is empty), ws_edit replaces old with new."""

    path: str
    old: str
    new: str


@dataclass(frozen=True)
class ShellRun:
    command: str
    exit_code: int | None  # None: refused, not found or timed out: nothing ran to the end


@dataclass(frozen=True)
class TaskRecord:
    steps: tuple[Edit | ShellRun, ...] = ()
    final_message: str = ""

    def edits(self, path: str | None = None) -> list[Edit]:
        return [s for s in self.steps if isinstance(s, Edit) and (path is None or s.path == path)]


def _exit_code(content: str) -> int | None:
    found = list(EXIT_LINE.finditer(content))
    if not found or found[-1].group(1) is None:  # no run, or the last one timed out
        return None
    return int(found[-1].group(1))


def _step(call: Mapping[str, Any], result: ToolMessage) -> Edit | ShellRun | None:
    args = call["args"] if isinstance(call.get("args"), dict) else {}
    name = call["name"]
    if name == SHELL:
        code = None if result_failed(result) else _exit_code(str(result.content))
        return ShellRun(str(args.get("command", "")), code)
    if name not in WRITE_TOOLS or result_failed(result):
        return None
    artifact = result.artifact if isinstance(result.artifact, dict) else {}
    path = str(artifact.get("path") or str(args.get("path") or "").removeprefix("./"))
    if name == WRITE:  # the whole new text
        return Edit(path, "", str(args.get("content", "")))
    return Edit(path, str(args.get("old_str", "")), str(args.get("new_str", "")))


def task_record(conversations: Sequence[Sequence[BaseMessage]]) -> TaskRecord:
    """The record of a task's attempts, oldest first: their steps in the order they ran, the last final word."""
    steps: list[Edit | ShellRun] = []
    final = ""
    for messages in conversations:
        final = ""  # the latest attempt's own last word
        calls = {c["id"]: c for m in messages if isinstance(m, AIMessage) for c in m.tool_calls}
        for message in messages:
            if isinstance(message, ToolMessage) and message.tool_call_id in calls:
                step = _step(calls[message.tool_call_id], message)
                if step is not None:
                    steps.append(step)
            elif isinstance(message, AIMessage) and not message.tool_calls and isinstance(message.content, str):
                final = message.content
    return TaskRecord(tuple(steps), final)
