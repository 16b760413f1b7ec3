"""Project instructions: the files a project keeps for coding agents, in priority order, capped and gated.

Files (first wins a tie): AGENTS.md, CLAUDE.md, AGENT.md, .cursorrules, .cursor/rules/*, .slmcode/AGENTS.md,
.slmcode/PROJECT.md, then README.md when include_readme is set. At most 4,000 bytes a file and 12,000 in all;
the total is checked after each file is added, so the file that crosses it is cut and later files are dropped.
A file reached twice (a symlink, or a copy with the same bytes) is read once.

Gating: front matter `paths: [...]` limits a whole file to the files in scope; `<!-- paths: ... -->` on a
heading limits that section. Ungated text is the same for every task of a run, so it goes to the stable prefix
(`base_text`); gated text that applies is task-specific (`scoped_text`). An empty scope disables gating.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pathspec
import yaml

from slmcode.environment.filenames import shown_name
from slmcode.packs import prompts
from slmcode.packs.settings import PackSettings
from slmcode.store.paths import PROJECT_NOTES, STATE_DIR

INSTRUCTION_FILES: tuple[str, ...] = ("AGENTS.md", "CLAUDE.md", "AGENT.md", ".cursorrules")
CURSOR_RULES_DIR = ".cursor/rules"
LATE_FILES: tuple[str, ...] = tuple(f"{STATE_DIR}/{name}" for name in PROJECT_NOTES)
README = "README.md"
MAX_FILE_BYTES = 4000
MAX_TOTAL_BYTES = 12000

_FRONT_MATTER_RE = re.compile(r"\A---\n(.*?)\n---\n?", re.DOTALL)
_HEADING_RE = re.compile(r"^(#{1,6})\s")
_PATHS_COMMENT_RE = re.compile(r"<!--\s*paths:\s*(.*?)\s*-->")


@dataclass(frozen=True)
class Instructions:
    """What applies: `text` is everything; `base_text` the ungated part, `scoped_text` the gated part."""

    text: str
    files: tuple[str, ...]
    base_text: str = ""
    scoped_text: str = ""
    cut: tuple[str, ...] = ()  # files shortened or dropped by a cap, with the reason


@dataclass(frozen=True)
class _Block:
    text: str
    gated: bool


def candidate_paths(workspace: Path, include_readme: bool) -> list[str]:
    """Relative paths to look at, in priority order."""
    rules_dir = workspace / CURSOR_RULES_DIR
    rules = (
        sorted(p.relative_to(workspace).as_posix() for p in rules_dir.rglob("*") if p.is_file())
        if (rules_dir.is_dir())
        else []
    )
    return [*INSTRUCTION_FILES, *rules, *LATE_FILES, *([README] if include_readme else [])]


def _globs(raw: object) -> list[str]:
    if isinstance(raw, str):
        return [g.strip() for g in raw.split(",") if g.strip()]
    if isinstance(raw, list):
        return [str(g).strip() for g in raw if str(g).strip()]
    return []


def _in_scope(globs: Sequence[str], scope: Sequence[str]) -> bool:
    spec = pathspec.PathSpec.from_lines("gitignore", globs)
    return any(spec.match_file(shown_name(path)) for path in scope)  # RE2 (pathspec's backend) refuses surrogates


def split_front_matter(text: str) -> tuple[list[str], str]:
    """The file's `paths:` globs (empty: ungated) and the text after the front matter."""
    match = _FRONT_MATTER_RE.match(text)
    if not match:
        return [], text
    try:
        data = yaml.safe_load(match.group(1))
    except yaml.YAMLError:
        return [], text  # not front matter we understand: keep the text as written
    globs = _globs(data.get("paths")) if isinstance(data, dict) else []
    return globs, text[match.end() :]


def gated_blocks(text: str, scope: Sequence[str]) -> list[_Block]:
    """The file cut into sections at headings; a section with a paths comment is kept only when in scope."""
    blocks: list[_Block] = []
    lines = text.splitlines(keepends=True)
    current: list[str] = []
    globs: list[str] = []
    level = 0

    def close() -> None:
        if current and (not globs or not scope or _in_scope(globs, scope)):
            blocks.append(_Block("".join(current), gated=bool(globs)))

    for i, line in enumerate(lines):
        heading = _HEADING_RE.match(line)
        if heading and (not globs or len(heading.group(1)) <= level):
            close()
            current, level = [], len(heading.group(1))
            comment = _PATHS_COMMENT_RE.search(line)
            if comment is None and i + 1 < len(lines):  # the comment may sit on the line below the heading
                comment = _PATHS_COMMENT_RE.fullmatch(lines[i + 1].strip())
            globs = _globs(comment.group(1)) if comment else []
        current.append(line)
    close()
    return blocks


def _cut_bytes(text: str, limit: int) -> str:
    """At most `limit` UTF-8 bytes, cut at a line boundary, with a visible marker."""
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    lines = text.splitlines(keepends=True)
    kept: list[str] = []
    size = 0
    for line in lines:
        marker = prompts.CUT_MARKER.format(count=len(lines) - len(kept)) + "\n"
        if size + len(line.encode()) + len(marker.encode()) > limit:
            break
        kept.append(line)
        size += len(line.encode())
    marker = prompts.CUT_MARKER.format(count=len(lines) - len(kept))
    return "".join(kept) + marker + "\n"


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None  # unreadable instructions are skipped, like absent ones


@dataclass(frozen=True)
class _Source:
    path: str
    ungated: str
    gated: str


def _sources(workspace: Path, settings: PackSettings, scope: Sequence[str]) -> list[_Source]:
    """Each instruction file once, in priority order, split into its ungated and its applicable gated text."""
    root = workspace.resolve()
    seen_paths: set[str] = set()
    seen_digests: set[str] = set()
    sources: list[_Source] = []
    for relative in candidate_paths(workspace, settings.include_readme):
        path = workspace / relative
        if not path.is_file():
            continue
        real = path.resolve()
        if not real.is_relative_to(root):
            continue  # a symlink out of the workspace is not the project's instruction
        key = real.relative_to(root).as_posix()
        raw = _read(path)
        if raw is None:
            continue
        digest = hashlib.sha256(raw.encode()).hexdigest()
        if key in seen_paths or digest in seen_digests:
            continue
        seen_paths.add(key)
        seen_digests.add(digest)
        file_globs, body = split_front_matter(raw)
        if file_globs and scope and not _in_scope(file_globs, scope):
            continue
        blocks = gated_blocks(body, scope)
        ungated = "".join(b.text for b in blocks if not b.gated and not file_globs)
        gated = "".join(b.text for b in blocks if b.gated or file_globs)
        sources.append(_Source(relative, ungated.strip("\n"), gated.strip("\n")))
    return sources


def _capped(
    parts: Sequence[tuple[str, str]], room: dict[str, int], total: int, cut: list[str]
) -> tuple[list[tuple[str, str]], int]:
    """Each (path, text) cut to its file's room, then to what is left of `total`, checked after each file.
    Returns the kept (path, rendered text) and the bytes of `total` left."""
    rendered: list[tuple[str, str]] = []
    for path, text in parts:
        if not text.strip():
            continue
        if total <= 0:
            cut.append(f"{path}: dropped, {MAX_TOTAL_BYTES} bytes in all already used")
            continue
        kept = _cut_bytes(text, room[path])
        if kept != text:
            cut.append(f"{path}: cut to {MAX_FILE_BYTES} bytes")
        crossed = len(kept.encode()) > total  # checked after the file just added
        if crossed:
            kept = _cut_bytes(kept, total)
            cut.append(f"{path}: cut to fit {MAX_TOTAL_BYTES} bytes in all")
        size = len(kept.encode())
        room[path] -= size
        total = 0 if crossed else total - size  # the file that crossed the cap is the last one in
        rendered.append((path, prompts.INSTRUCTION_SOURCE.format(path=path) + "\n" + kept.strip("\n") + "\n"))
    return rendered, total


def load_instructions(workspace: Path, settings: PackSettings, paths_in_scope: Sequence[str] = ()) -> Instructions:
    """The project's instructions that apply to `paths_in_scope` (all of them when the scope is empty).

    Ungated text is capped first and alone, so the stable prefix never depends on the task's scope; gated
    text that applies gets what the caps leave.
    """
    scope = sorted(dict.fromkeys(p.replace("\\", "/") for p in paths_in_scope))
    sources = _sources(workspace, settings, scope)
    room = {s.path: MAX_FILE_BYTES for s in sources}
    cut: list[str] = []
    base, left = _capped([(s.path, s.ungated) for s in sources], room, MAX_TOTAL_BYTES, cut)
    scoped, _ = _capped([(s.path, s.gated) for s in sources], room, left, cut)
    kept = {path for path, _ in [*base, *scoped]}
    base_text = "\n".join(text for _, text in base).strip()
    scoped_text = "\n".join(text for _, text in scoped).strip()
    return Instructions(
        text="\n\n".join(t for t in (base_text, scoped_text) if t),
        files=tuple(s.path for s in sources if s.path in kept),
        base_text=base_text,
        scoped_text=scoped_text,
        cut=tuple(cut),
    )
