"""What a chat request carries from its session's thread (store/chat_threads.py) into its run.

A follow-up request carries what the session already did, not its transcripts: each earlier turn as one line
(the request, the outcome, the files changed, the verdicts) and, for the latest turns, the must-preserve digest
of the run's conversations (compact.digest: files read and edited, commands, failures). The block is bounded
by the task's room in the smallest role's pack (compact.longtask.task_room), oldest turns dropped first, so a
long session never pushes the new request out of a small window.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from slmcode.store.chat_threads import Thread, Turn

DIGEST_BYTES = 400  # one turn's digest: the latest turns get one, within the block's share
SESSION_SHARE = 0.5  # of the task's room: the new request keeps the rest
SESSION_HEAD = "Earlier in this chat session (oldest first; files written file:PATH are as those runs left them):"
QUOTED = "file:"


def turn_of(request: str, kind: str, result: Any, workspace: Path) -> Turn:
    """What a finished run adds to the thread: its outcome, the files its tasks changed, their verdicts."""
    changed = sorted({f for t in result.tasks for f in t.files_changed})
    verdicts = [f"{v.criterion.text}: {v.status}" for t in result.tasks for v in t.verdicts if v.gate is None]
    return Turn(
        request=request,
        kind=kind,
        run_id=result.run_id,
        outcome=result.outcome,
        changed=changed,
        verdicts=verdicts[:6],
        digest=run_digest(workspace, result.run_id),
        answer=result.answer or "",
    )


def run_digest(workspace: Path, run_id: str) -> str:
    """The must-preserve digest of every conversation the run stored (compact.digest), cut to DIGEST_BYTES."""
    from slmcode.compact.digest import build_digest, fit_bytes
    from slmcode.store.conversations import ConversationStore

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
