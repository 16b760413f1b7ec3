"""The simulated model's plan for its next tool step, read off what the request showed it (shown.py) and what it
knows (knowledge.py): the reference edits, each written only once the lines it changes were shown and the file
was read; until then it explores as a naive model does (search the task's words, list folders, read the file
whose name turned up). When every edit is made it runs the tests once, then says it is done. Errors are not
made here: errors.py turns this intended step into the one the profile's rates say it sends."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from typing import Any

from slmcode.eval.sim.knowledge import FileChange, Hunk, Knowledge
from slmcode.eval.sim.memory import remembered, rewrite_text
from slmcode.eval.sim.shown import Shown
from slmcode.tools.registry import EDIT, LIST, READ, SEARCH, SHELL, WRITE, WRITE_TOOLS

PATH_WORD = re.compile(r"(?<![\w/.-])(?:[\w-]+/)*[\w-]+\.\w+")  # a relative path with a suffix
GAVE_UP = "I could not find where this change goes; I am done."


@dataclass(frozen=True)
class Action:
    """A call (name, args) or, with no name, a final answer `text`. `edit` marks a write step of a hunk."""

    name: str = ""
    args: dict[str, Any] = field(default_factory=dict)
    text: str = ""
    hunk: Hunk | None = None
    change: FileChange | None = None

    @property
    def is_call(self) -> bool:
        return bool(self.name)

    @property
    def is_edit(self) -> bool:
        return self.name in WRITE_TOOLS

    @property
    def is_rewrite(self) -> bool:
        """A whole-file rewrite of a file that exists, in place of an edit (the harness offered it)."""
        return self.name == WRITE and self.hunk is not None


def _same_lines(a: str, b: str) -> bool:
    """The same change, whatever indentation it was sent with (the harness re-indents a shifted edit)."""
    return [line.strip() for line in a.splitlines()] == [line.strip() for line in b.splitlines()]


def _lines(text: str) -> set[str]:
    return {line.strip() for line in text.splitlines() if line.strip()}


def _shows_applied(hunk: Hunk, shown: Shown) -> bool:
    """A read of the file in this request shows the hunk's change already in place (a corrector's second go)."""
    added = _lines(hunk.new_str) - _lines(hunk.old_str)
    removed = _lines(hunk.old_str) - _lines(hunk.new_str)
    if not added and not removed:
        return False
    for step in reversed(shown.read_ok(hunk.path)):
        body = _lines("\n".join(line.split("\t", 1)[-1] for line in (step.result or "").splitlines()))
        if added <= body and not (removed & body):
            return True
    return False


def _hunk_done(hunk: Hunk, shown: Shown) -> bool:
    for step in shown.steps:
        if (
            step.name == EDIT
            and step.path == hunk.path
            and not step.failed
            and _same_lines(str(step.args.get("new_str") or ""), hunk.new_str)
        ):
            return True
    return _shows_applied(hunk, shown)


def _written(change: FileChange, shown: Shown) -> bool:
    return any(s.name == WRITE and s.path == change.path and not s.failed for s in shown.steps)


def pending(knowledge: Knowledge, shown: Shown) -> list[tuple[FileChange, Hunk | None]]:
    """The edits it still means to make, in order; a whole-file change has no hunk."""
    out: list[tuple[FileChange, Hunk | None]] = []
    for change in knowledge.changes:
        if _written(change, shown):
            continue
        if not change.hunks:
            whole = any(
                s.name == EDIT and s.path == change.path and not s.failed and s.args.get("new_str") == change.after
                for s in shown.steps
            )
            out += [] if whole else [(change, None)]
        out += [(change, h) for h in change.hunks if not _hunk_done(h, shown)]
    return out


def _listed(shown: Shown, folder: str) -> bool:
    return any(
        s.name == LIST and (s.args.get("path") or ".").strip("/") in (folder, f"./{folder}") for s in shown.steps
    )


def explore(knowledge: Knowledge, shown: Shown, path: str) -> Action:
    """The next step toward finding `path`: read it once its name was shown, else search, else list folders."""
    if path in shown.text:
        return Action(READ, {"path": path})
    searched = {s.args.get("pattern") for s in shown.steps if s.name == SEARCH}
    for term in knowledge.search_terms:
        if term not in searched:
            return Action(SEARCH, {"pattern": term})
    folders = ["."]
    parent = posixpath.dirname(path)
    while parent:
        folders.insert(1, parent)
        parent = posixpath.dirname(parent)
    for folder in folders:
        name = posixpath.basename(folder)
        if not _listed(shown, folder) and (folder == "." or name in shown.text):
            return Action(LIST, {"path": folder})
    return Action(text=GAVE_UP)


def _edit(change: FileChange, hunk: Hunk | None, shown: Shown, knowledge: Knowledge) -> Action:
    path = change.path
    if change.is_new:  # nothing to read: it writes the new file where the task's other files live
        return Action(WRITE, {"path": path, "content": change.after}, change=change)
    if not shown.read_ok(path):
        return explore(knowledge, shown, path)
    if hunk is None:  # no unique anchor: the whole file's text replaced in one edit
        if not all(shown.seen(line) for line in _lines(change.before)):
            return Action(READ, {"path": path, "offset": 1, "limit": 2000})
        return Action(EDIT, {"path": path, "old_str": change.before, "new_str": change.after}, change=change)
    if not all(shown.seen(line) for line in hunk.old_lines()):
        return Action(READ, {"path": path, "offset": max(1, hunk.line - 5)})
    if shown.rewrite_offered(path) or (shown.tools and EDIT not in shown.tools):
        # Offered the whole file after its old_str missed (or given no ws_edit): it writes the file as it means it,
        # from what it remembers of it, once it has seen all of it (as the offer's cut notice asks).
        missing, last = remembered(path, shown).first_missing, shown.last()
        read_again = last is not None and last.name == READ and last.args.get("offset") == missing
        if missing is not None and not read_again:  # (a read that showed nothing new: it writes what it has)
            return Action(READ, {"path": path, "offset": missing, "limit": 2000})
        return Action(WRITE, {"path": path, "content": rewrite_text(change, shown)}, hunk=hunk, change=change)
    return Action(EDIT, {"path": path, "old_str": hunk.old_str, "new_str": hunk.new_str}, hunk=hunk, change=change)


def next_action(knowledge: Knowledge, shown: Shown, role: str) -> Action:
    """What it means to do next in a tool-using role (worker, corrector, tester, the plain loop)."""
    test = knowledge.task.test_command
    title = knowledge.task.title
    if role != "tester":
        todo = pending(knowledge, shown)
        if todo:
            return _edit(*todo[0], shown, knowledge)
    if not any(s.name == SHELL for s in shown.after_last_write()):
        return Action(SHELL, {"command": test})
    return Action(text=f"Done: {title}.{left_alone(knowledge, shown)}")


def left_alone(knowledge: Knowledge, shown: Shown) -> str:
    """Told after its work of repository files its idea of the fix leaves unchanged (a nudge naming them), it says
    they need no change, as a model sure of its fix does; told nothing, it says nothing of them."""
    changes, repo = {c.path for c in knowledge.changes}, knowledge.task.repo
    named = dict.fromkeys(PATH_WORD.findall(shown.last_user))
    told = [p for p in named if p not in changes and ".." not in p.split("/") and (repo / p).is_file()]
    return "".join(f" {path} needs no change." for path in told)
