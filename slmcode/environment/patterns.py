"""ws_search's patterns, matched by RE2: linear time in the text, whatever the pattern.

Python's `re` backtracks: `(a+)+$` on a 40-character line runs for hours and holds the GIL, so no watchdog
thread can stop it. RE2 (the google-re2 wheel) has no backtracking, so it cannot express backreferences or
lookaround; a pattern that needs them gets one line back saying so. A pattern that no engine accepts
(`add(a`, `foo[0`) is what a model writes when it means the text itself: it is searched as a literal.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import re2

from slmcode.environment import refusals

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False  # RE2 prints every rejected pattern to stderr otherwise
_OPTIONS.max_mem = 64 << 20  # room for large counted repetitions; RE2 refuses beyond this, never hangs
_ANCHORS = re.compile(r"[\^$]|\\[AzZ]")


@dataclass(frozen=True)
class Matcher:
    """A compiled pattern: `line` tests one line; `anywhere` is a cheap test of a whole file first
    (multi-line, so a line that matches is always found in its file)."""

    line: Callable[[str], object]
    anywhere: Callable[[str], object]
    note: str = ""


def _compile(pattern: str) -> re2._Regexp:
    return re2.compile(pattern, _OPTIONS)


def _matcher(pattern: str, note: str = "") -> Matcher:
    line = _compile(pattern)
    if _ANCHORS.search(pattern):
        # Lines are split as ws_read splits them (\r, form feed, ... too); a multi-line ^ or $ only knows \n.
        return Matcher(line=line.search, anywhere=lambda _text: True, note=note)
    whole = _compile(f"(?m:{pattern})")
    return Matcher(line=line.search, anywhere=whole.search, note=note)


def _reason(error: Exception) -> str:
    raw = error.args[0] if error.args else error
    return (raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)).strip()


def compile_pattern(pattern: str) -> Matcher | str:
    """A Matcher, or the one-line error the model gets back."""
    try:
        return _matcher(pattern)
    except re2.error as exc:
        reason = _reason(exc)
    try:
        re.compile(pattern)
    except (re.error, RecursionError, OverflowError):
        return _matcher(re.escape(pattern), refusals.BAD_REGEX_NOTE + "\n")
    # Valid for Python but not for RE2: backreferences, lookaround, possessive or other Perl-only syntax.
    return refusals.REGEX_UNSUPPORTED.format(pattern=pattern, reason=reason)
