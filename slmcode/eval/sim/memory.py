"""What the simulated model remembers of a file: only what the conversation showed it (its reads, numbered as
ws_read numbers them, and the text a rewrite offer quotes), with its own successful edits replayed on that text.
A whole-file rewrite is written from this memory with its belief's change applied, never from the reference
file: a region it never read (or that the window dropped) is missing from the rewrite, and a region read before
a change it does not remember is stale."""

from __future__ import annotations

import re
from dataclasses import dataclass

from slmcode.eval.sim.knowledge import FileChange
from slmcode.eval.sim.shown import REWRITE_OFFER, Shown
from slmcode.tools.registry import EDIT, READ, WRITE

NUMBERED = re.compile(r"^(\d+)\t(.*)$")
# Where a rewrite offer's quoted text begins, and the notice that it was cut (tools/prompts.EDIT_OFFER_WHOLE and
# REWRITE_TEXT_CUT, as the model reads them).
OFFER_TEXT = "The current text of "
CUT = re.compile(r"^\[cut here: lines (\d+)-(\d+) not shown")
GOES_ON = "offset="  # a read that stopped before the end says where to go on


@dataclass
class Memory:
    lines: dict[int, str]
    end: int = 0  # the file's last line number, once a view reached the end or said how long the file is

    @property
    def first_missing(self) -> int | None:
        """The first line it has not seen (None: it has seen the whole file)."""
        last = self.end or (max(self.lines) + 1 if self.lines else 1)
        return next((n for n in range(1, last + 1) if n not in self.lines), None if self.end else last)

    @property
    def text(self) -> str:
        return "".join(self.lines[n] + "\n" for n in sorted(self.lines))

    def replace(self, old: str, new: str) -> None:
        """Its own edit, replayed on what it remembers (a region it never saw stays unseen)."""
        text = self.text
        if old and old in text:
            self.lines = dict(enumerate(text.replace(old, new, 1).splitlines(), start=1))
            self.end = len(self.lines) if self.end else 0


def _read_view(memory: Memory, result: str) -> None:
    numbered = [NUMBERED.match(line) for line in result.splitlines()]
    for found in numbered:
        if found:
            memory.lines[int(found.group(1))] = found.group(2)
    if any(numbered) and GOES_ON not in result:
        memory.end = max(int(f.group(1)) for f in numbered if f)


def _offer_view(memory: Memory, path: str, result: str) -> None:
    head = f"{OFFER_TEXT}{path}:\n"
    if head not in result:
        return
    body = result.split(head, 1)[1].splitlines()
    cut = next((CUT.match(line) for line in body if CUT.match(line)), None)
    shown = [line for line in body if not CUT.match(line)]
    memory.lines = dict(enumerate(shown, start=1))
    memory.end = int(cut.group(2)) if cut else len(shown)


def remembered(path: str, shown: Shown) -> Memory:
    """Its memory of `path` after this request's conversation, view by view in the order it saw them."""
    memory = Memory({})
    for step in shown.steps:
        if step.path != path or step.result is None:
            continue
        if step.name == READ and not step.failed:
            _read_view(memory, step.result)
        elif step.name == EDIT and step.failed and REWRITE_OFFER in step.result:
            _offer_view(memory, path, step.result)
        elif step.name == EDIT and not step.failed:
            memory.replace(str(step.args.get("old_str") or ""), str(step.args.get("new_str") or ""))
        elif step.name == WRITE and not step.failed:
            memory.lines = dict(enumerate(str(step.args.get("content") or "").splitlines(), start=1))
            memory.end = len(memory.lines)
    return memory


def rewrite_text(change: FileChange, shown: Shown) -> str:
    """The whole file as it means it: what it remembers, with each hunk of its belief applied where it
    remembers the hunk's old text (a hunk in a region it never saw is lost with the region)."""
    memory = remembered(change.path, shown)
    text = memory.text
    for hunk in change.hunks:
        if hunk.old_str in text:
            text = text.replace(hunk.old_str, hunk.new_str, 1)
    if text and not change.after.endswith("\n"):
        text = text.removesuffix("\n")
    return text
