"""Chat sessions' threads (`slmcode chat`): each session's requests and what each run did, in .slmcode/chat/.

thread.json is the current session; /clear keeps the one it ends as <id>.json beside it, so the web view lists
every session and its runs. Written whole and atomically: a killed session leaves the last state it saved,
including the run it had in flight (`pending`), which the next session offers to resume.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from slmcode.errors import SlmcodeError
from slmcode.store.atomic import atomic_write_text
from slmcode.store.paths import prepare_parent, state_dir

CHAT_DIR = "chat"
THREAD_FILE = "thread.json"
HISTORY_FILE = "history"  # prompt_toolkit's input history, across sessions
LINE_CHARS = 200


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
        parts = [f'{self.kind} "{_clip(self.request)}"', f"outcome: {_clip(self.outcome or 'unknown', 120)}"]
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
    path = chat_dir(workspace) / HISTORY_FILE
    prepare_parent(path)
    return path


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
        raise SlmcodeError(
            f"chat thread {path} is unreadable ({type(exc).__name__}): remove it to start a new one"
        ) from None


def save_thread(workspace: Path, thread: Thread) -> None:
    atomic_write_text(chat_dir(workspace) / THREAD_FILE, thread.model_dump_json(indent=2) + "\n")


def end_thread(workspace: Path, thread: Thread) -> None:
    """Keep a finished session beside the current one (it had requests; an empty one is not worth a file)."""
    if thread.turns:
        atomic_write_text(chat_dir(workspace) / f"{thread.id}.json", thread.model_dump_json(indent=2) + "\n")


def list_threads(workspace: Path) -> list[Thread]:
    """Every readable session, the current one first, then the ended ones newest first."""
    folder = chat_dir(workspace)
    found: list[Thread] = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            found.append(Thread.model_validate_json(path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError, ValidationError):
            continue  # a hand-edited file is not a session; the list goes on without it
    current = (folder / THREAD_FILE).is_file() and load_thread(workspace).id
    unique = {t.id: t for t in found}
    return sorted(unique.values(), key=lambda t: (t.id != current, -t.started.timestamp()))


def _clip(text: str, limit: int = LINE_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
