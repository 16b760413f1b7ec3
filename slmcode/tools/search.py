"""ws_search: matching lines as `path:line: text`, bounded in matches, bytes and time.

Patterns run on RE2 (patterns.py), so no pattern can hang the run. Files over max_read_bytes are not
searched and the result names them; the whole search stops after SEARCH_BYTES read or SEARCH_SECONDS
spent and says so, so a huge tree costs a bounded step. A file is first tested whole, and only a file that
matches is split into lines. File names are shown escaped (filenames.py), as ws_list shows them. Files are
found and read through the task's Environment (stat, listdir, read), whose refusals come back as the tools' own.
"""

from __future__ import annotations

import posixpath
import time

from slmcode.environment import Entry
from slmcode.environment.containment import Refusal
from slmcode.environment.filenames import shown_name
from slmcode.environment.patterns import Matcher, compile_pattern
from slmcode.tools import prompts
from slmcode.tools.context import ToolContext
from slmcode.tools.listing import walk_files
from slmcode.tools.permissions import staged_texts
from slmcode.tools.textfile import BINARY_SAMPLE_BYTES, clip_line, decode, looks_binary

SEARCH_LIMIT = 50
SEARCH_LINE_CHARS = 200
SEARCH_BYTES = 64 << 20
SEARCH_SECONDS = 10.0
SKIPPED_SHOWN = 5


def locate(ctx: ToolContext, path: str) -> Entry:
    """Where a model's path leads in the task's Environment; a Refusal (its one line) when it may not go there."""
    try:
        return ctx.env.stat(path)
    except ValueError as exc:
        raise Refusal(str(exc)) from None


def ws_search(ctx: ToolContext, pattern: str, glob: str | None = None, path: str = ".") -> str:
    try:
        target = locate(ctx, path or ".")
    except Refusal as exc:
        return str(exc)
    matcher = compile_pattern(pattern)
    if isinstance(matcher, str):
        return matcher
    staged = staged_texts(ctx)
    start = target.path if target.kind == "dir" else posixpath.dirname(target.path) or "."
    files = [target.path] if target.kind == "file" else walk_files(ctx.env, start, glob)
    hits: list[str] = []
    skipped: list[str] = []
    read, searched, deadline = 0, 0, time.monotonic() + SEARCH_SECONDS
    tail = ""
    for rel in files:
        shown = shown_name(rel)
        if read > SEARCH_BYTES or time.monotonic() > deadline:
            why = f"{read >> 20} MB read" if read > SEARCH_BYTES else f"{SEARCH_SECONDS:.0f} s spent"
            tail = prompts.SEARCH_STOPPED.format(files=searched, why=why)
            break
        text = staged[shown] if shown in staged else _searchable_text(ctx, rel, skipped)
        searched += 1
        if not text:
            continue
        read += len(text)
        if _search_text(matcher, shown, text, hits):
            tail = prompts.SEARCH_CUT.format(limit=SEARCH_LIMIT)
            break
    return _render(matcher, pattern, hits, skipped, tail, ctx.settings.max_read_bytes)


def _search_text(matcher: Matcher, shown: str, text: str, hits: list[str]) -> bool:
    """Add the file's matching lines to hits; True when the match limit is reached."""
    if not matcher.anywhere(text):
        return False
    for number, line in enumerate(text.splitlines(), start=1):
        if matcher.line(line):
            hits.append(f"{shown}:{number}: {clip_line(line.strip(), SEARCH_LINE_CHARS)}")
            if len(hits) >= SEARCH_LIMIT:
                return True
    return False


def _render(matcher: Matcher, pattern: str, hits: list[str], skipped: list[str], tail: str, limit: int) -> str:
    notes = []
    if skipped:
        more = f" and {len(skipped) - SKIPPED_SHOWN} more" if len(skipped) > SKIPPED_SHOWN else ""
        notes.append(prompts.SEARCH_SKIPPED.format(limit=limit, paths=", ".join(skipped[:SKIPPED_SHOWN]) + more))
    if tail:
        notes.append(tail)
    body = hits or [prompts.NO_MATCHES.format(pattern=pattern)]
    return matcher.note + "\n".join([*body, *notes])


def _searchable_text(ctx: ToolContext, rel: str, skipped: list[str]) -> str | None:
    """A file's text for searching, or None for binary or escaping files (skipped silently) and oversized
    ones (named in `skipped`)."""
    try:
        entry = ctx.env.stat(rel)
        if entry.kind != "file":
            return None
        if entry.size > ctx.settings.max_read_bytes:
            skipped.append(shown_name(entry.path))
            return None
        data = ctx.env.read(entry.path)
    except (ValueError, OSError):
        return None
    if looks_binary(data[:BINARY_SAMPLE_BYTES]):
        return None
    return decode(data)[0]
