"""The SIMULATED model's answers to the aider-like peer (eval/aider_like.py), in the edit format its system text
asks for: every file its belief changes whole (`whole`), or search/replace blocks from each file as the request
shows it now to the file it means (`diff`, so a second try edits the first try's text, as a real model must).

Its slips are the format's own, drawn once per answer from the common random numbers: in `whole` a fence left
open (rate malformed_block); in `diff` a SEARCH line recalled with text the file does not have (malformed_diff
for an answer to the task or the tests' output, malformed_diff_again for an answer to being told its blocks
failed: aider's failures cluster, one bad file recall begets another)."""

from __future__ import annotations

from typing import Any

from slmcode.eval.aider_like import file_blocks
from slmcode.eval.prompts import (
    AIDER_DIFF_BLOCK,
    AIDER_DIFF_FAILED_HEAD,
    AIDER_DIFF_SYSTEM,
    AIDER_FILE,
    AIDER_FILES,
    AIDER_SYSTEM,
)
from slmcode.eval.sim.draws import Draws
from slmcode.eval.sim.knowledge import Knowledge, hunks_between
from slmcode.eval.sim.profile import Profile
from slmcode.eval.sim.shown import Request, content_text

FILES_HEAD = AIDER_FILES.split("{", 1)[0]
MISRECALLED = "  # (as it recalls the line)"


def is_aider(request: Request) -> bool:
    """The aider-like peer asks: its system text, in either edit format."""
    texts = [content_text(m.get("content")) for m in request.get("messages") or []]
    return any(AIDER_SYSTEM in t or AIDER_DIFF_SYSTEM in t for t in texts)


def is_diff(request: Request) -> bool:
    return any(AIDER_DIFF_SYSTEM in content_text(m.get("content")) for m in request.get("messages") or [])


def is_reflection(request: Request) -> bool:
    """The last message tells it blocks of its last answer failed to apply."""
    messages = request.get("messages") or []
    return bool(messages) and content_text(messages[-1].get("content")).startswith(AIDER_DIFF_FAILED_HEAD)


def files_now(request: Request) -> dict[str, str]:
    """The files as the request's latest files message shows them."""
    for message in reversed(request.get("messages") or []):
        text = content_text(message.get("content"))
        if message.get("role") == "user" and text.startswith(FILES_HEAD):
            return dict(file_blocks(text))
    return {}


def _with_newline(text: str) -> str:
    return text if not text or text.endswith("\n") else text + "\n"


def diff_blocks(path: str, current: str, target: str) -> list[tuple[str, str]]:
    """(search, replace) pairs that turn `current` into `target`: one per changed region with enough context to be
    unique, the whole text when no region is, an empty search for a new file."""
    if current == target:
        return []
    if not current:
        return [("", _with_newline(target))]
    hunks = hunks_between(path, current, target)
    if not hunks:
        return [(_with_newline(current), _with_newline(target))]
    return [(_with_newline(h.old_str), _with_newline(h.new_str)) for h in hunks]


def _misrecall(search: str, replace: str) -> tuple[str, str, bool]:
    """The block with its first non-blank SEARCH line recalled wrongly; an empty search loses its divider."""
    lines = search.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.strip():
            lines[i] = line.rstrip("\n") + MISRECALLED + "\n"
            return "".join(lines), replace, True
    return search, replace, False


def diff_answer(knowledge: Knowledge, request: Request, profile: Profile, draws: Draws) -> tuple[str, tuple[str, ...]]:
    """Its blocks for what it believes, and the errors it made."""
    again = is_reflection(request)
    point = "malformed_diff_again" if again else "malformed_diff"
    _, value, _ = draws.uniform(point)
    malformed = value < profile.rates.get(point, 0.0)
    shown = files_now(request)
    parts: list[str] = []
    for change in knowledge.changes:
        for search, replace in diff_blocks(change.path, shown.get(change.path, change.before), change.after):
            divider = True
            if malformed and not parts:
                search, replace, divider = _misrecall(search, replace)
            block = AIDER_DIFF_BLOCK.format(path=change.path, search=search, replace=replace)
            parts.append(block if divider else block.replace("=======\n", "", 1))
    return "".join(parts), ((point,) if malformed and parts else ())


def whole_answer(knowledge: Knowledge, profile: Profile, draws: Draws) -> tuple[str, tuple[str, ...]]:
    """Every file its belief changes, whole; a fence left open at the profile's per-answer rate."""
    _, value, _ = draws.uniform("malformed_block")
    blocks = "".join(AIDER_FILE.format(path=c.path, text=c.after) for c in knowledge.changes)
    made = ("malformed_block",) if value < profile.rates.get("malformed_block", 0.0) else ()
    if made:
        blocks = blocks.replace("```\n", "\n")
    return blocks, made


def aider_answer(knowledge: Knowledge, request: Request, profile: Profile, draws: Draws) -> tuple[str, Any]:
    if is_diff(request):
        return diff_answer(knowledge, request, profile, draws)
    return whole_answer(knowledge, profile, draws)
