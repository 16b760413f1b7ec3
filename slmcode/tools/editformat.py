"""The edit format of one task: how the worker may change an existing file.

replace: ws_edit's exact old_str only (ws_write creates new files). whole: ws_write rewrites a whole file the task
has read, and ws_edit is not offered. auto: replace, until old_str has missed `offer_after` times on one file; from
then on that file's miss shows its current text and offers the whole-file rewrite, which ws_write then accepts.
Every rewrite is guarded: one that drops a definition (function, class, method) the task did not name is refused,
with the names, so the model can put them back.

The misses are read off the stored conversation (like the files read), so a resumed step counts the same.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from slmcode.environment.containment import Refusal, resolve_path
from slmcode.tools import prompts
from slmcode.tools.registry import EDIT

if TYPE_CHECKING:
    from langchain_core.messages import BaseMessage

MODES = ("replace", "whole", "auto")
MISS_HEAD = prompts.EDIT_NOT_FOUND.split("{", 1)[0]  # "Error: old_str was not found in "

# (path, text) -> the qualified names of the definitions in it ("Class.method"); None: no grammar reads the file.
Definitions = Callable[[str, str], Sequence[str] | None]


@dataclass
class EditFormat:
    mode: str = "replace"
    offer_after: int = 2  # settings.edit_format_misses
    misses: Counter[str] = field(default_factory=Counter)  # shown path -> old_str misses in this task
    definitions: Definitions | None = None  # the repo map's symbol extraction, handed in by the worker
    task_text: str = ""  # what the task says: a definition it names may go

    def offers_rewrite(self, path: str) -> bool:
        """ws_write may rewrite this existing file (it must still have been read, and keep its definitions)."""
        return self.mode == "whole" or (self.mode == "auto" and self.misses[path] >= self.offer_after)

    def dropped(self, path: str, before: str, after: str) -> list[str]:
        """The definitions `before` has that `after` lost and the task did not name, in file order."""
        if self.definitions is None:
            return []
        old = self.definitions(path, before)
        if not old:
            return []
        kept = set(self.definitions(path, after) or ())
        words = set(re.findall(r"\w+", self.task_text))
        return list(dict.fromkeys(n for n in old if n not in kept and n.rsplit(".", 1)[-1] not in words))


def misses_in(messages: Sequence[BaseMessage], workspace: Path) -> Counter[str]:
    """How often ws_edit's old_str missed, per file, in this conversation."""
    # Imported here, where a run's messages are read: every tool module imports this one, `slmcode pack` too.
    from langchain_core.messages import AIMessage, ToolMessage

    calls = {c["id"]: c for m in messages if isinstance(m, AIMessage) for c in m.tool_calls if c["name"] == EDIT}
    counts: Counter[str] = Counter()
    for message in messages:
        call = calls.get(message.tool_call_id) if isinstance(message, ToolMessage) else None
        if call is None or not str(message.content).startswith(MISS_HEAD):
            continue
        try:
            counts[resolve_path(workspace, str(call["args"].get("path") or "")).shown] += 1
        except (Refusal, OSError, AttributeError):
            continue
    return counts


def shown_text(text: str, budget: int) -> str:
    """The file's text for a rewrite offer, whole lines up to `budget` bytes, then where to read on."""
    lines = text.splitlines()
    out, size = list[str](), len(prompts.REWRITE_TEXT_CUT.format(next=len(lines), total=len(lines)).encode()) + 1
    for number, line in enumerate(lines, start=1):
        cost = len(line.encode("utf-8", "replace")) + 1
        if out and size + cost > budget:
            return "\n".join(out) + "\n" + prompts.REWRITE_TEXT_CUT.format(next=number, total=len(lines))
        out.append(line)
        size += cost
    return "\n".join(out) if out else "(empty file)"


def miss_message(edit: EditFormat, path: str, text: str, nearest: Callable[[], str], budget: int) -> str:
    """What a miss answers: the nearest lines, or, once the rewrite is offered, the file's text and the offer."""
    if not edit.offers_rewrite(path):
        return prompts.EDIT_NOT_FOUND.format(path=path, nearest=nearest())
    head = prompts.EDIT_OFFER_WHOLE.format(path=path, misses=edit.misses[path], text="")
    return head + shown_text(text, max(200, budget - len(head.encode())))
