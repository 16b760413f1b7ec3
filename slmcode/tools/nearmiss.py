"""When ws_edit's old_str is not in the file: the repairs that are unambiguous (line numbers, line endings, trailing
spaces, an indentation shifted throughout), and the nearest lines to show."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from slmcode.tools import prompts

# What ws_read puts before each line (or the "N| " of earlier versions); small models often copy it into old_str.
LINE_NUMBER_PREFIX = re.compile(r"^\s*\d+(\t|\| ?)")
CANDIDATE_STARTS = 8


def strip_line_numbers(snippet: str) -> str | None:
    """The snippet without ws_read's line-number prefixes, when every non-empty line carries one."""
    lines = snippet.split("\n")
    if not all(LINE_NUMBER_PREFIX.match(line) for line in lines if line.strip()):
        return None
    return "\n".join(LINE_NUMBER_PREFIX.sub("", line, count=1) for line in lines)


def exact_variants(text: str, old: str) -> list[str]:
    """old_str, then the forms of it that mean the same text: no line numbers, the file's line endings."""
    variants = [old]
    stripped = strip_line_numbers(old)
    if stripped is not None:
        variants.append(stripped)
    if "\r\n" in text:
        variants += [v.replace("\r\n", "\n").replace("\n", "\r\n") for v in list(variants)]
    return variants


def nearest_lines(text: str, old: str, context: int = 1) -> str:
    """The window of the file most like `old`, numbered as ws_read numbers lines, with a line of context."""
    lines = text.splitlines()
    wanted = [line.strip() for line in old.strip("\n").splitlines()] or [""]
    if not lines:
        return "(the file is empty)"
    first = next((w for w in wanted if w), wanted[0])
    # Cheap first pass on single lines picks a few starts; the full window comparison runs only on those.
    scored = sorted(
        range(len(lines)),
        key=lambda i: -difflib.SequenceMatcher(None, lines[i].strip(), first).quick_ratio(),
    )[:CANDIDATE_STARTS]
    offset = next(i for i, w in enumerate(wanted) if w == first)
    target = "\n".join(wanted)

    def window_score(start: int) -> float:
        begin = max(0, start - offset)
        window = "\n".join(line.strip() for line in lines[begin : begin + len(wanted)])
        return difflib.SequenceMatcher(None, window, target).ratio()

    best = max(scored, key=lambda i: (window_score(i), -i))
    begin = max(0, best - offset - context)
    end = min(len(lines), best - offset + len(wanted) + context)
    return "\n".join(f"{n + 1}\t{lines[n]}" for n in range(begin, end))


def match_lines(text: str, old: str) -> list[int]:
    """1-based line numbers where each occurrence of `old` starts."""
    starts, at = [], text.find(old)
    while at != -1:
        starts.append(text.count("\n", 0, at) + 1)
        at = text.find(old, at + 1)
    return starts


@dataclass(frozen=True)
class LooseEdit:
    """A near miss that has one reading: the file's new text, the 1-based line old_str matched, and how."""

    text: str
    line: int
    how: str
    reindented: bool


def _lead(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _shift(file_line: str, old_line: str) -> tuple[str, str] | None:
    """(added, removed): the indentation the file has that old_str lacks, or the reverse; None: not one line."""
    if file_line.strip() != old_line.strip():
        return None
    have, want = _lead(file_line), _lead(old_line)
    if have.endswith(want):
        return have[: len(have) - len(want)], ""
    if want.endswith(have):
        return "", want[: len(want) - len(have)]
    return None


def _window_shift(lines: list[str], old: list[str]) -> tuple[str, str] | None:
    """The one indentation shift that makes `old` these lines (trailing spaces ignored), if there is one."""
    shift: tuple[str, str] | None = None
    for have, want in zip(lines, old, strict=True):
        if not have.strip() and not want.strip():
            continue
        this = _shift(have.rstrip(), want.rstrip())
        if this is None or (shift is not None and this != shift):
            return None
        shift = this
    return shift


def _reindent(new_str: str, added: str, removed: str) -> str | None:
    """new_str shifted as old_str was; None when a line of it lacks the indentation to take away."""
    out = []
    for line in new_str.split("\n"):
        if not line.strip():
            out.append(line)
        elif removed:
            if not line.startswith(removed):
                return None
            out.append(line[len(removed) :])
        else:
            out.append(added + line)
    return "\n".join(out)


def loose_match(text: str, old_str: str, new_str: str) -> LooseEdit | None:
    """old_str's whole lines found once in the file when trailing spaces are ignored and its indentation may be
    shifted by one amount throughout (a model recalling a block out of its nesting); the edit applied there with
    new_str shifted the same way. None when no window, or more than one, reads so."""
    old = old_str.strip("\n").split("\n")
    if not any(line.strip() for line in old):
        return None
    kept = text.splitlines(keepends=True)
    bare = [line.rstrip("\r\n") for line in kept]
    found = [
        (i, s) for i in range(len(bare) - len(old) + 1) if (s := _window_shift(bare[i : i + len(old)], old)) is not None
    ]
    if len(found) != 1:
        return None
    start, (added, removed) = found[0]
    new = _reindent(new_str.strip("\n"), added, removed) if added or removed else new_str.strip("\n")
    if new is None:
        return None
    last = kept[start + len(old) - 1]
    ending = last[len(last.rstrip("\r\n")) :]
    newline = "\r\n" if "\r\n" in text else "\n"
    body = new.replace("\r\n", "\n").replace("\n", newline) + ending if new else ""
    how = prompts.LOOSE_INDENT if added or removed else prompts.LOOSE_TRAILING
    return LooseEdit(
        "".join(kept[:start]) + body + "".join(kept[start + len(old) :]), start + 1, how, bool(added or removed)
    )
