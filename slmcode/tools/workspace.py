"""The workspace tools' behaviour: ws_read, ws_list, ws_write, ws_edit, ws_skill (ws_search: search.py).

ws_write creates files; it rewrites an existing one only where the task's edit format allows (editformat.py),
and ws_edit applies an unambiguous near miss of old_str (nearmiss.py) before it refuses.

Each takes the task's ToolContext and the model's arguments and returns text. A refusal or a model's mistake
comes back as text starting with "Error:"; nothing here raises for a model's mistake. In dry-run and review
modes a file is read through its recorded patch, and the result says so. Paths are shown (and recorded in
read_paths and files_changed) escaped as filenames.shown_name writes them; a file read in a fallback
encoding says so, and edits write it back in that encoding. Files are read and folders listed through the task's
Environment (`ctx.env`: stat, read, listdir), as they are written through it.
"""

from __future__ import annotations

from itertools import islice

from slmcode.environment import Entry, refusals
from slmcode.environment.containment import Refusal, WorkspacePath, resolve_path
from slmcode.environment.filenames import shown_name
from slmcode.tools import editformat, nearmiss, prompts
from slmcode.tools.context import ToolContext
from slmcode.tools.listing import list_children, walk_files
from slmcode.tools.pathhint import path_hint
from slmcode.tools.permissions import Encoding, Patch, record_write, staged_patch
from slmcode.tools.search import locate, ws_search
from slmcode.tools.textfile import UTF8, clip_line, read_slice, read_text, require_file

__all__ = ["ws_edit", "ws_list", "ws_read", "ws_search", "ws_skill", "ws_write"]

DEFAULT_READ_LINES = 200
MAX_LINE_CHARS = 400
LIST_LIMIT = 200
READ_NOTE_BYTES = 64  # kept free for the note saying where to read on, so a read is never offloaded
ALREADY_MADE_CHARS = 20  # a new_str this short (a name, a return) may well occur in the file without this edit


def _notes(shown: str, patch: Patch | None, encoding: str) -> str:
    notes = []
    if patch is not None:
        notes.append(prompts.STAGED_NOTE.format(path=patch.path, mode=patch.mode, id=patch.id))
    if encoding != UTF8:
        notes.append(prompts.ENCODING_NOTE.format(path=shown, encoding=encoding))
    return "".join(note + "\n" for note in notes)


def _view(ctx: ToolContext, entry: Entry) -> tuple[str, Encoding, Patch | None]:
    """The file as this task sees it: through its recorded patch if there is one, else from the workspace."""
    patch = staged_patch(ctx, shown_name(entry.path))
    if patch is not None:
        return patch.new_text, patch.encoding, patch
    text, encoding = read_text(ctx.env, entry, ctx.settings.max_read_bytes)
    return text, encoding, None  # type: ignore[return-value]


def ws_read(ctx: ToolContext, path: str, offset: int = 1, limit: int = DEFAULT_READ_LINES) -> str:
    try:
        entry = locate(ctx, path)
        shown = shown_name(entry.path)
        offset, limit = max(1, offset), max(1, limit)
        patch = staged_patch(ctx, shown)
        if entry.kind == "missing" and patch is None:
            return refusals.NOT_FOUND.format(path=shown) + path_hint(ctx.env, path)
        if patch is None and require_file(entry) > ctx.settings.max_read_bytes:
            # Too big to read whole: read only the lines shown, each cut as it is read.
            # Each shown line costs at least 2 bytes of the output ("N\t"): no more lines can be shown.
            part = read_slice(ctx.env, entry, offset, min(limit, ctx.inline_bytes // 2), MAX_LINE_CHARS)
            lines, total, encoding = part.lines, part.total, part.encoding
        else:
            text, encoding, patch = _view(ctx, entry)
            all_lines = text.splitlines()
            total = len(all_lines)
            lines = [clip_line(line, MAX_LINE_CHARS) for line in all_lines[offset - 1 : offset - 1 + limit]]
        if total and offset > total:
            return prompts.PAST_END.format(path=shown, total=total, offset=offset)
    except Refusal as exc:
        return str(exc)
    ctx.read_paths.add(shown)
    notes = _notes(shown, patch, encoding)
    out, size, budget = list[str](), 0, ctx.inline_bytes - READ_NOTE_BYTES - len(notes.encode())
    for number, line in enumerate(lines, start=offset):
        rendered = f"{number}\t{line}"
        cost = len(rendered.encode("utf-8", "replace")) + 1  # bytes, as the allowance counts them
        if out and size + cost > budget:
            out.append(prompts.READ_CUT.format(last=number - 1, next=number))
            break
        out.append(rendered)
        size += cost
    else:
        shown_to = offset + len(lines) - 1
        if shown_to < total:
            out.append(prompts.MORE_LINES.format(shown=len(lines), total=total, next=shown_to + 1))
    body = "\n".join(out) if lines else "(empty file)"
    return notes + body


def ws_list(ctx: ToolContext, path: str = ".", glob: str | None = None) -> str:
    try:
        entry = locate(ctx, path or ".")
    except Refusal as exc:
        return str(exc)
    if entry.kind != "dir":
        return prompts.NOT_A_DIR.format(path=shown_name(entry.path))
    entries = walk_files(ctx.env, entry.path, glob) if glob else iter(list_children(ctx.env, entry.path))
    shown = [shown_name(entry) for entry in islice(entries, LIST_LIMIT)]
    more = sum(1 for _ in entries)
    if not shown:
        return prompts.EMPTY_LISTING
    return "\n".join(shown + ([prompts.LIST_CUT.format(more=more)] if more else []))


def ws_write(ctx: ToolContext, path: str, content: str) -> str:
    try:
        target = resolve_path(ctx.workspace, path, for_write=True)
    except Refusal as exc:
        return str(exc)
    if target.real.is_dir():
        return refusals.NOT_A_FILE.format(path=target.shown)
    exists = target.real.exists() or staged_patch(ctx, target.shown) is not None
    if exists and ctx.edit.offers_rewrite(target.shown):  # the edit format's whole-file rewrite (editformat.py)
        refused = _rewrite_refusal(ctx, target, content)
        if refused:
            return refused
    elif exists and ctx.write_guard:  # little-coder's write guard: a whole-file rewrite loses what the model never read
        return prompts.WRITE_EXISTS.format(path=target.shown)
    result = record_write(ctx, target, content, action="overwrote" if exists else "created")
    ctx.read_paths.add(target.shown)  # the model knows what it just wrote
    return result


def _rewrite_refusal(ctx: ToolContext, target: WorkspacePath, content: str) -> str | None:
    """Why a whole-file rewrite may not go ahead: the file unread, or definitions dropped the task did not name."""
    if target.shown not in ctx.read_paths:
        return prompts.REWRITE_READ_FIRST.format(path=target.shown)
    try:
        before, _, _ = _view(ctx, locate(ctx, target.rel))
    except Refusal as exc:
        return str(exc)
    dropped = ctx.edit.dropped(target.shown, before, content)
    return prompts.REWRITE_DROPS.format(path=target.shown, names=", ".join(dropped)) if dropped else None


def ws_edit(ctx: ToolContext, path: str, old_str: str, new_str: str) -> str:
    try:
        target = resolve_path(ctx.workspace, path, for_write=True)
        if target.shown not in ctx.read_paths and path.strip() not in ctx.read_paths:
            if locate(ctx, path).kind == "missing" and staged_patch(ctx, target.shown) is None:
                return refusals.NOT_FOUND.format(path=target.shown) + path_hint(ctx.env, path)  # not "read it first"
            return prompts.READ_FIRST.format(path=target.shown)
        if not old_str:
            return prompts.EMPTY_OLD
        if old_str == new_str:
            return prompts.SAME_TEXT
        text, encoding, _ = _view(ctx, locate(ctx, path))
    except Refusal as exc:
        return str(exc)
    for old in nearmiss.exact_variants(text, old_str):
        starts = nearmiss.match_lines(text, old)
        if len(starts) > 1:
            lines = ", ".join(str(n) for n in starts[:10])
            return prompts.EDIT_NOT_UNIQUE.format(count=len(starts), path=target.shown, lines=lines)
        if starts:
            new = new_str if old == old_str else _same_form(old_str, old, new_str)
            return record_write(ctx, target, text.replace(old, new, 1), action="edited", encoding=encoding)
    loose = nearmiss.loose_match(text, old_str, new_str)
    if loose is not None:
        result = record_write(ctx, target, loose.text, action="edited", encoding=encoding)
        if result.startswith("Error"):
            return result
        reindent = prompts.LOOSE_REINDENT if loose.reindented else ""
        return result + "\n" + prompts.EDIT_LOOSE.format(line=loose.line, how=loose.how, reindent=reindent)
    if len(new_str.strip()) >= ALREADY_MADE_CHARS and (at := text.find(new_str)) >= 0:
        # Not a recall miss (it counts toward no rewrite offer): the model does not know its edit is in.
        return prompts.EDIT_ALREADY_MADE.format(path=target.shown, line=text.count("\n", 0, at) + 1)
    ctx.edit.misses[target.shown] += 1  # this step's misses count too; earlier steps' come from the transcript
    return editformat.miss_message(
        ctx.edit, target.shown, text, lambda: nearmiss.nearest_lines(text, old_str), ctx.inline_bytes
    )


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
