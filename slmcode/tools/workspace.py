"""The workspace tools' behaviour: ws_read, ws_list, ws_search, ws_write, ws_edit, ws_skill.

Each takes the task's ToolContext and the model's arguments and returns text. A refusal or a model's mistake
comes back as text starting with "Error:"; nothing here raises for a model's mistake. In dry-run and review
modes a file is read through its recorded patch, and the result says so.
"""

from __future__ import annotations

import re
from itertools import islice

from slmcode.tools import nearmiss, prompts
from slmcode.tools.context import ToolContext
from slmcode.tools.permissions import Patch, load_patches, patch_folder, record_write, staged_patch
from slmcode.tools.sandbox import (
    BINARY_SAMPLE_BYTES,
    Refusal,
    WorkspacePath,
    is_binary_file,
    looks_binary,
    read_text,
    require_file,
    resolve_path,
    workspace_root,
)
from slmcode.tools.walk import list_children, walk_files

DEFAULT_READ_LINES = 200
MAX_LINE_CHARS = 400
LIST_LIMIT = 200
SEARCH_LIMIT = 50
SEARCH_LINE_CHARS = 200
READ_NOTE_BYTES = 64  # kept free for the note saying where to read on, so a read is never offloaded


def _note(patch: Patch | None) -> str:
    if patch is None:
        return ""
    return prompts.STAGED_NOTE.format(path=patch.path, mode=patch.mode, id=patch.id) + "\n"


def _view(ctx: ToolContext, target: WorkspacePath) -> tuple[str, Patch | None]:
    """The file as this task sees it: through its recorded patch if there is one, else from disk."""
    patch = staged_patch(ctx, target.rel)
    if patch is not None:
        return patch.new_text, patch
    return read_text(target, ctx.settings.max_read_bytes), None


def _clip_line(line: str, limit: int = MAX_LINE_CHARS) -> str:
    return line if len(line) <= limit else f"{line[:limit]}… [{len(line) - limit} chars cut]"


def _stream_lines(target: WorkspacePath, offset: int, limit: int) -> list[str]:
    """A slice of a file too big to read whole (the preview of an oversized file)."""
    with target.real.open("rb") as handle:
        if looks_binary(handle.read(BINARY_SAMPLE_BYTES)):
            size = target.real.stat().st_size
            raise Refusal(prompts.BINARY_FILE.format(path=target.rel, size=size))
    with target.real.open(encoding="utf-8", errors="replace") as handle:
        return [line.rstrip("\r\n") for line in islice(handle, offset - 1, offset - 1 + limit)]


def ws_read(ctx: ToolContext, path: str, offset: int = 1, limit: int = DEFAULT_READ_LINES) -> str:
    try:
        target = resolve_path(ctx.workspace, path)
        offset, limit = max(1, offset), max(1, limit)
        patch = staged_patch(ctx, target.rel)
        if patch is None and require_file(target) > ctx.settings.max_read_bytes:
            lines, total = _stream_lines(target, offset, limit), None
        else:
            text, patch = _view(ctx, target)
            all_lines = text.splitlines()
            total = len(all_lines)
            if total and offset > total:
                return prompts.PAST_END.format(path=target.rel, total=total, offset=offset)
            lines = all_lines[offset - 1 : offset - 1 + limit]
    except Refusal as exc:
        return str(exc)
    ctx.read_paths.add(target.rel)
    out, size, budget = [], 0, ctx.inline_bytes - READ_NOTE_BYTES
    for number, line in enumerate(lines, start=offset):
        rendered = f"{number}\t{_clip_line(line)}"
        if out and size + len(rendered) > budget:
            out.append(prompts.READ_CUT.format(last=number - 1, next=number))
            break
        out.append(rendered)
        size += len(rendered) + 1
    else:
        shown_to = offset + len(lines) - 1
        if total is None or shown_to < total:
            out.append(prompts.MORE_LINES.format(shown=len(lines), total=total or "?", next=shown_to + 1))
    body = "\n".join(out) if lines else "(empty file)"
    return _note(patch) + body


def ws_list(ctx: ToolContext, path: str = ".", glob: str | None = None) -> str:
    try:
        target = resolve_path(ctx.workspace, path or ".")
    except Refusal as exc:
        return str(exc)
    if not target.real.is_dir():
        return prompts.NOT_A_DIR.format(path=target.rel)
    root = workspace_root(ctx.workspace)
    entries = walk_files(root, target.real, glob) if glob else iter(list_children(root, target.real))
    shown = list(islice(entries, LIST_LIMIT))
    more = sum(1 for _ in entries)
    if not shown:
        return prompts.EMPTY_LISTING
    return "\n".join(shown + ([prompts.LIST_CUT.format(more=more)] if more else []))


def ws_search(ctx: ToolContext, pattern: str, glob: str | None = None, path: str = ".") -> str:
    try:
        target = resolve_path(ctx.workspace, path or ".")
    except Refusal as exc:
        return str(exc)
    note = ""
    try:
        regex = re.compile(pattern)
    except re.error:
        regex, note = re.compile(re.escape(pattern)), prompts.BAD_REGEX_NOTE + "\n"
    root = workspace_root(ctx.workspace)
    staged = _staged_texts(ctx)
    start = target.real if target.real.is_dir() else target.real.parent
    files = [target.rel] if target.real.is_file() else walk_files(root, start, glob)
    hits: list[str] = []
    for rel in files:
        text = staged.get(rel) if rel in staged else _searchable_text(ctx, rel)
        for number, line in enumerate((text or "").splitlines(), start=1):
            if regex.search(line):
                hits.append(f"{rel}:{number}: {_clip_line(line.strip(), SEARCH_LINE_CHARS)}")
                if len(hits) >= SEARCH_LIMIT:
                    return note + "\n".join([*hits, prompts.SEARCH_CUT.format(limit=SEARCH_LIMIT)])
    return note + ("\n".join(hits) if hits else prompts.NO_MATCHES.format(pattern=pattern))


def _staged_texts(ctx: ToolContext) -> dict[str, str]:
    mode = ctx.settings.permission
    if mode == "auto":
        return {}
    return {p.path: p.new_text for p in load_patches(patch_folder(ctx.workspace, mode, ctx.run_id))}


def _searchable_text(ctx: ToolContext, rel: str) -> str | None:
    """A file's text for searching, or None for binary, oversized or escaping files (skipped silently)."""
    try:
        target = resolve_path(ctx.workspace, rel)
        if target.real.stat().st_size > ctx.settings.max_read_bytes or is_binary_file(target.real):
            return None
        return target.real.read_text(encoding="utf-8", errors="replace")
    except (Refusal, OSError):
        return None


def ws_write(ctx: ToolContext, path: str, content: str) -> str:
    try:
        target = resolve_path(ctx.workspace, path, for_write=True)
    except Refusal as exc:
        return str(exc)
    if target.real.is_dir():
        return prompts.NOT_A_FILE.format(path=target.rel)
    if target.real.exists() or staged_patch(ctx, target.rel) is not None:
        return prompts.WRITE_EXISTS.format(path=target.rel)
    result = record_write(ctx, target, content, action="created")
    ctx.read_paths.add(target.rel)  # the model knows what it just wrote
    return result


def ws_edit(ctx: ToolContext, path: str, old_str: str, new_str: str) -> str:
    try:
        target = resolve_path(ctx.workspace, path, for_write=True)
        if target.rel not in ctx.read_paths:
            return prompts.READ_FIRST.format(path=target.rel)
        if not old_str:
            return prompts.EMPTY_OLD
        if old_str == new_str:
            return prompts.SAME_TEXT
        text, _ = _view(ctx, target)
    except Refusal as exc:
        return str(exc)
    for old in nearmiss.exact_variants(text, old_str):
        starts = nearmiss.match_lines(text, old)
        if len(starts) > 1:
            lines = ", ".join(str(n) for n in starts[:10])
            return prompts.EDIT_NOT_UNIQUE.format(count=len(starts), path=target.rel, lines=lines)
        if starts:
            new = new_str if old == old_str else _same_form(old_str, old, new_str)
            return record_write(ctx, target, text.replace(old, new, 1), action="edited")
    return prompts.EDIT_NOT_FOUND.format(path=target.rel, nearest=nearmiss.nearest_lines(text, old_str))


def _same_form(given: str, matched: str, new_str: str) -> str:
    """Give new_str the repair that made old_str match (line numbers dropped, line endings converted)."""
    fixed = nearmiss.strip_line_numbers(new_str) if nearmiss.strip_line_numbers(given) is not None else None
    new = fixed if fixed is not None else new_str
    if "\r\n" in matched and "\r\n" not in new:
        new = new.replace("\n", "\r\n")
    return new


def ws_skill(ctx: ToolContext, name: str) -> str:
    body = ctx.skills(name.strip()) if ctx.skills is not None else None
    return body if body is not None else prompts.NO_SKILL.format(name=name)
