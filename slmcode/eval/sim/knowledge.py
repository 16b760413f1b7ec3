"""What the simulated model knows about a task: the reference solution as the edits that turn repo/ into
solution/ (search/replace hunks for a changed file, a whole file for a new one), and the words it would search
for. It knows them, but may write one only after the lines it changes were shown to it (policy.py)."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import cached_property

from slmcode.eval.suite import EvalTask

CONTEXT_TRIES = (1, 2, 3, 5, 8)  # lines of context around a hunk, grown until its old text is unique
STOPWORDS = frozenset(
    {
        "about",
        "after",
        "also",
        "always",
        "before",
        "being",
        "between",
        "change",
        "could",
        "every",
        "first",
        "function",
        "given",
        "return",
        "returns",
        "should",
        "their",
        "there",
        "these",
        "which",
        "while",
        "would",
        "write",
        "without",
        "number",
        "string",
        "value",
        "values",
    }
)


@dataclass(frozen=True)
class Hunk:
    path: str
    old_str: str
    new_str: str
    line: int  # where old_str starts, 1-based

    def old_lines(self) -> list[str]:
        return [line.strip() for line in self.old_str.splitlines() if line.strip()]


@dataclass(frozen=True)
class FileChange:
    path: str
    before: str  # "" for a new file
    after: str
    hunks: tuple[Hunk, ...]  # empty: the file is written whole (new, or no unique anchor)

    @property
    def is_new(self) -> bool:
        return not self.before


def hunks_between(path: str, before: str, after: str) -> tuple[Hunk, ...]:
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for context in CONTEXT_TRIES:
        hunks = []
        for group in matcher.get_grouped_opcodes(context):
            i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
            old_str, new_str = "".join(old[i1:i2]), "".join(new[j1:j2])
            if not old_str.strip() or before.count(old_str) != 1:
                break
            hunks.append(Hunk(path, old_str, new_str, i1 + 1))
        else:
            return tuple(hunks)
    return ()


def _opcodes(before: str, after: str) -> list[tuple[str, int, int, int, int]]:  # (tag, i1, i2, j1, j2)
    old, new = before.splitlines(), after.splitlines()
    return list(difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes())


def _text(path: object) -> str:
    try:
        return path.read_text(encoding="utf-8")  # type: ignore[attr-defined]
    except (OSError, UnicodeDecodeError):
        return ""


@dataclass(frozen=True)
class Knowledge:
    task: EvalTask
    # A wrong belief (mutants.py): path -> the text it means each file to have, in place of the reference's.
    believed: tuple[tuple[str, str], ...] | None = None

    @cached_property
    def changes(self) -> tuple[FileChange, ...]:
        """Every file its belief changes or adds (the reference solution's, unless it believes otherwise)."""
        reference = {
            p.relative_to(self.task.solution).as_posix(): p for p in self.task.solution.rglob("*") if p.is_file()
        }
        believed = dict(self.believed) if self.believed is not None else None
        out = []
        for rel in sorted(reference if believed is None else reference.keys() | believed.keys()):
            original = self.task.repo / rel
            before = _text(original) if original.is_file() else ""
            after = _text(reference[rel]) if believed is None else believed.get(rel, before)
            if before != after:
                out.append(FileChange(rel, before, after, hunks_between(rel, before, after) if before else ()))
        return tuple(out)

    @cached_property
    def search_terms(self) -> tuple[str, ...]:
        """The words a naive model searches for: names in back-quotes, then identifiers, then long words."""
        prompt = self.task.prompt
        quoted = re.findall(r"`([^`\n]{2,40})`", prompt)
        idents = re.findall(r"\b[A-Za-z_]*(?:_[A-Za-z0-9]+|[a-z][A-Z][A-Za-z0-9]*)\b", prompt)
        words = sorted(
            {w for w in re.findall(r"\b[A-Za-z]{6,}\b", prompt) if w.lower() not in STOPWORDS},
            key=lambda w: (-len(w), w),
        )
        terms: list[str] = []
        for term in [*quoted, *idents, *words]:
            term = re.sub(r"\(.*", "", term).strip()
            if term and re.fullmatch(r"[\w.]+", term) and term not in terms:
                terms.append(term)
        return tuple(terms[:4])

    def size(self) -> tuple[int, int, int]:
        """(hunks, files, changed lines) of what it means to change: the task's difficulty inputs."""
        hunks = sum(max(1, len(c.hunks)) for c in self.changes)
        lines = sum(
            sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in _opcodes(c.before, c.after) if tag != "equal")
            for c in self.changes
        )
        return hunks, len(self.changes), lines

    def solution_text(self, path: str) -> str:
        return next((c.after for c in self.changes if c.path == path), "")
