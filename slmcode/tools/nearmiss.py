"""When ws_edit's old_str is not in the file: the repairs that are unambiguous, and the nearest lines to show."""

from __future__ import annotations

import difflib
import re

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
