"""Facts read off a worker's transcript rather than kept beside it, so they survive a crash and a resume:
which files it read, which it changed, and how its checks failed. A file tool's result carries the path the
tool resolved (ToolMessage.artifact["path"]); the sets come from those, never from the model's raw argument."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from slmcode.environment.containment import Refusal, resolve_path
from slmcode.state import Verdict
from slmcode.tools.registry import FILE_TOOLS, SHELL, WRITE_TOOLS
from slmcode.tools.shellchanges import noted_changes


def touched_path(workspace: Path, name: str, args: object) -> str | None:
    """The workspace-relative path a file tool worked on, normalised as the tools normalise it (an absolute
    path or `./x` names the same file as `x`); None for other tools and refused paths."""
    if name not in FILE_TOOLS or not isinstance(args, dict) or not args.get("path"):
        return None
    try:
        return resolve_path(workspace, str(args["path"])).rel
    except (Refusal, OSError):
        return None


def _succeeded_paths(messages: Sequence[BaseMessage], names: frozenset[str]) -> set[str]:
    """Paths of the calls to `names` that succeeded: the normalised path their result carries (its artifact),
    else, for a transcript stored before results carried one, the model's own argument."""
    calls = {c["id"]: c for m in messages if isinstance(m, AIMessage) for c in m.tool_calls}
    paths = set()
    for m in messages:
        if not isinstance(m, ToolMessage) or (call := calls.get(m.tool_call_id)) is None:
            continue
        if call["name"] not in names or m.status == "error" or str(m.content).startswith("Error"):
            continue
        artifact = m.artifact if isinstance(m.artifact, dict) else {}
        path = artifact.get("path") or str(call.get("args", {}).get("path") or "").removeprefix("./")
        if path:
            paths.add(path)
    return paths


def files_changed(messages: Sequence[BaseMessage]) -> list[str]:
    """Files the write tools wrote, and those the worker's commands changed (the line ws_shell's result ends
    with, tools/shellchanges)."""
    shell_ids = {c["id"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls if c["name"] == SHELL}
    by_shell = {
        p
        for m in messages
        if isinstance(m, ToolMessage) and m.tool_call_id in shell_ids
        for p in noted_changes(str(m.content))
    }
    return sorted(_succeeded_paths(messages, WRITE_TOOLS) | by_shell)


def changes_by_turn(messages: Sequence[BaseMessage]) -> list[tuple[int, str]]:
    """(turn, path) for each file `files_changed` counts, where turn numbers the model answer whose call changed it
    (1 for the first answer): when a file was first done, which the worker's turn limit counts from."""
    answers: dict[str, tuple[int, AIMessage]] = {}
    turn = 0
    for m in messages:
        if isinstance(m, AIMessage):
            turn += 1
            answers.update({str(c["id"]): (turn, m) for c in m.tool_calls})
    out: list[tuple[int, str]] = []
    for m in messages:
        if isinstance(m, ToolMessage) and m.tool_call_id in answers:
            at, answer = answers[m.tool_call_id]
            out += [(at, path) for path in files_changed([answer, m])]  # one result, by files_changed's own rules
    return out


def files_read(messages: Sequence[BaseMessage]) -> set[str]:
    """Files read (or written: a file the worker created is one it knows) in this conversation."""
    return _succeeded_paths(messages, FILE_TOOLS)


def render_failures(verdicts: Sequence[Verdict], evidence_chars: int = 600) -> str:
    lines = [
        f"- [{v.status}] {v.criterion.text}"
        + (f" (`{v.criterion.verify}`)" if v.criterion.verify else "")
        + (f"\n  {v.evidence[-evidence_chars:].strip()}" if v.evidence.strip() else "")
        for v in verdicts
        if v.status != "PASSED"
    ]
    return "\n".join(lines) or "- (none)"
