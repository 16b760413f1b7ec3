"""A chat session's thread: its requests and what each run did, kept in .slmcode/chat/thread.json.

A follow-up request carries what the session already did, not its transcripts: each earlier turn as one line
(the request, the outcome, the files changed, the verdicts) and, for the latest turns, the must-preserve digest
of the run's conversations (compact.digest: files read and edited, commands, failures). The block is bounded
by the task's room in the smallest role's pack (compact.longtask.task_room), oldest turns dropped first, so a
long session never pushes the new request out of a small window.
"""

from __future__ import annotations

import re
import secrets
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from slmcode.errors import SlmcodeError
from slmcode.store.atomic import atomic_write_text
from slmcode.store.paths import state_dir

CHAT_DIR = "chat"
THREAD_FILE = "thread.json"
HISTORY_FILE = "history"  # prompt_toolkit's input history, across sessions
DIGEST_BYTES = 400  # one turn's digest: the latest turns get one, within the block's share
SESSION_SHARE = 0.5  # of the task's room: the new request keeps the rest
LINE_CHARS = 200
SESSION_HEAD = ("Earlier in this chat session (oldest first; files written file:PATH are as those runs left "
                "them):")
QUOTED = "file:"


class Turn(BaseModel):
    request: str
    kind: str = "run"  # run | ask | plan
    run_id: str = ""
    outcome: str = ""
    changed: list[str] = Field(default_factory=list)
    verdicts: list[str] = Field(default_factory=list)
    digest: str = ""
    answer: str = ""
    undone: bool = False  # /undo took the run's changes back: a follow-up must not build on them

    def line(self) -> str:
        parts = [f"{self.kind} \"{_clip(self.request)}\"", f"outcome: {_clip(self.outcome or 'unknown', 120)}"]
        if self.changed:
            parts.append("changed: " + ", ".join(self.changed))
        if self.verdicts:
            parts.append("verdicts: " + "; ".join(self.verdicts))
        if self.answer:
            parts.append(f"answer: {_clip(self.answer)}")
        if self.undone:
            parts.append("undone: its changes were taken back")
        return " | ".join(parts)


class Thread(BaseModel):
    id: str
    started: datetime
    turns: list[Turn] = Field(default_factory=list)
    focus: list[str] = Field(default_factory=list)  # /add: files the next request names
    pending: dict[str, str] | None = None  # the run in flight ({run_id, request}); left set when it was cut off


def chat_dir(workspace: Path) -> Path:
    return state_dir(workspace) / CHAT_DIR


def history_path(workspace: Path) -> Path:
    folder = chat_dir(workspace)
    folder.mkdir(parents=True, exist_ok=True)
    return folder / HISTORY_FILE


def new_thread() -> Thread:
    return Thread(id=f"chat-{datetime.now(UTC):%Y%m%d-%H%M%S}-{secrets.token_hex(2)}", started=datetime.now(UTC))


def load_thread(workspace: Path) -> Thread:
    """The workspace's chat thread, or a new one; a broken file is named, not silently replaced."""
    path = chat_dir(workspace) / THREAD_FILE
    if not path.is_file():
        return new_thread()
    try:
        return Thread.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValidationError) as exc:
        raise SlmcodeError(f"chat thread {path} is unreadable ({type(exc).__name__}): remove it to start "
                           "a new one") from None


def save_thread(workspace: Path, thread: Thread) -> None:
    atomic_write_text(chat_dir(workspace) / THREAD_FILE, thread.model_dump_json(indent=2) + "\n")


def turn_of(request: str, kind: str, result: Any, workspace: Path) -> Turn:
    """What a finished run adds to the thread: its outcome, the files its tasks changed, their verdicts."""
    changed = sorted({f for t in result.tasks for f in t.files_changed})
    verdicts = [f"{v.criterion.text}: {v.status}" for t in result.tasks for v in t.verdicts if v.gate is None]
    return Turn(request=request, kind=kind, run_id=result.run_id, outcome=result.outcome, changed=changed,
                verdicts=verdicts[:6], digest=run_digest(workspace, result.run_id), answer=result.answer or "")


def run_digest(workspace: Path, run_id: str) -> str:
    """The must-preserve digest of every conversation the run stored (compact.digest), cut to DIGEST_BYTES."""
    from slmcode.compact.digest import build_digest, fit_bytes
    from slmcode.memory.conversations import ConversationStore

    store = ConversationStore.for_workspace(workspace)
    try:
        messages = [m for name in store.names(run_id) for m in store.stored(run_id, name)]
    except Exception:  # a missing or broken store: the turn's line still says what the run did
        return ""
    finally:
        store.close()
    return fit_bytes(build_digest(messages), DIGEST_BYTES).render() if messages else ""


def carried_request(request: str, thread: Thread, settings: Any, workspace: Path) -> str:
    """The request as the run gets it: the request first (a preview cut keeps it), the focus files, then what
    the session already did within SESSION_SHARE of the task's room."""
    from slmcode.budget.tokens import count_tokens
    from slmcode.compact.longtask import task_room

    text = request
    if thread.focus:
        text += "\n\nFocus files: " + ", ".join(thread.focus)
    if not thread.turns:
        return text
    room = int(task_room(settings) * SESSION_SHARE)
    turns = list(thread.turns)
    while turns:
        for digests in (2, 1, 0):  # the digests go before any turn does
            block = quiet_paths(session_block(turns, digests), workspace)
            if count_tokens(block) <= room:
                return f"{text}\n\n{block}"
        turns = turns[1:]  # then the oldest turn
    return text


def session_block(turns: list[Turn], digests: int = 2) -> str:
    """The turns as lines, oldest first; the `digests` latest with their digest below."""
    lines = [SESSION_HEAD]
    for n, turn in enumerate(turns, 1):
        lines.append(f"{n}. {turn.line()}")
        if turn.digest and n > len(turns) - digests:
            lines.extend("   " + line for line in turn.digest.splitlines())
    return "\n".join(lines)


def quiet_paths(text: str, workspace: Path) -> str:
    """Workspace files the block names, written file:PATH. The splitter makes every file a request names a focus
    file of every task (packs.named), and the completeness gate fails a task that neither touches nor explains
    one: a follow-up was failed for not touching a file an earlier request had only read."""
    from slmcode.packs.named import PATH_WORD

    root = workspace.resolve()

    def quoted(match: re.Match[str]) -> str:
        word = match.group(1).removeprefix("./").rstrip(".")
        return QUOTED + match.group(1) if word and (root / word).is_file() else match.group(0)

    return PATH_WORD.sub(quoted, text)


def _clip(text: str, limit: int = LINE_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
