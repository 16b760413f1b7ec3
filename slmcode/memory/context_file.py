"""CONTEXT.md: the areas earlier runs touched and what each run did, kept compact.

Newest first. When the touched list outgrows its bound, the oldest paths are folded into their folders
("src/api/ (4 files)"), a little at a time, so each compaction keeps most of the file's paths and passes
the acceptance gate; the recent-runs list keeps the last few runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath

TOUCHED_HEADING = "## Touched areas"
RUNS_HEADING = "## Recent runs"
MAX_TOUCHED = 30
KEEP_EXACT = 20
MAX_RUNS = 12
MAX_SUMMARY_CHARS = 200
MAX_QUERY_CHARS = 80
DEFAULT_PREAMBLE = (
    "# Context\n\nAreas earlier runs touched (newest first) and what each run did. slmcode keeps this compact.\n"
)
GROUP_RE = re.compile(r"^(?P<folder>.+/) \((?P<count>\d+) files?\)$")


@dataclass
class ContextDoc:
    preamble: str = ""
    touched: list[str] = field(default_factory=list)
    runs: list[str] = field(default_factory=list)


def normalise_path(path: str) -> str:
    text = path.strip().replace("\\", "/")
    while text.startswith("./"):
        text = text[2:]
    return text


def _bullets(text: str) -> list[str]:
    return [line[2:].strip() for line in text.splitlines() if line.startswith("- ") and line[2:].strip()]


def parse_context(text: str) -> ContextDoc:
    """Split CONTEXT.md into its preamble and its two lists; unknown text before them is the preamble."""
    starts = [i for i in (text.find(TOUCHED_HEADING), text.find(RUNS_HEADING)) if i >= 0]
    if not starts:
        return ContextDoc(preamble=text)
    preamble, rest = text[: min(starts)], text[min(starts) :]
    touched_part, _, runs_part = rest.partition(RUNS_HEADING)
    return ContextDoc(preamble=preamble, touched=_bullets(touched_part), runs=_bullets(runs_part))


def render_context(doc: ContextDoc) -> str:
    head = doc.preamble.rstrip() or DEFAULT_PREAMBLE.rstrip()
    touched = "".join(f"- {entry}\n" for entry in doc.touched)
    runs = "".join(f"- {entry}\n" for entry in doc.runs)
    return f"{head}\n\n{TOUCHED_HEADING}\n\n{touched}\n{RUNS_HEADING}\n\n{runs}"


def _group_parts(entry: str) -> tuple[str, int]:
    """(folder key, number of files) for a path or an already folded entry."""
    match = GROUP_RE.match(entry)
    if match:
        return match["folder"], int(match["count"])
    parent = str(PurePosixPath(entry).parent)
    return ("./" if parent == "." else parent + "/"), 1


def compact_touched(entries: list[str], limit: int = MAX_TOUCHED, keep_exact: int = KEEP_EXACT) -> list[str]:
    """Fold entries beyond the newest `keep_exact` into per-folder counts; then cut to `limit`."""
    if len(entries) <= limit:
        return list(entries)
    kept, older = entries[:keep_exact], entries[keep_exact:]
    folders: dict[str, int] = {}
    for entry in older:
        folder, count = _group_parts(entry)
        folders[folder] = folders.get(folder, 0) + count
    folded = [f"{folder} ({count} file{'s' if count != 1 else ''})" for folder, count in folders.items()]
    return [*kept, *folded][:limit]


def merge_touched(existing: list[str], touched: list[str]) -> list[str]:
    """New paths first, then the earlier entries they do not repeat (uncompacted)."""
    fresh = list(dict.fromkeys(p for p in (normalise_path(t) for t in touched) if p))
    return [*fresh, *(entry for entry in existing if entry not in fresh)]


def one_line(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def run_entry(run_id: str, date: str, summary: str, query: str) -> str:
    what = one_line(summary, MAX_SUMMARY_CHARS) or "(no summary)"
    return f"{date} {run_id}: {what} (task: {one_line(query, MAX_QUERY_CHARS)})"


def merged_context(text: str, *, touched: list[str], run_line: str) -> tuple[str, str]:
    """(merged, compacted) renderings of CONTEXT.md after a run; equal when nothing needed folding.

    Both are returned so the caller can put the compaction through the acceptance gate and keep the
    merged text when the gate refuses.
    """
    doc = parse_context(text)
    runs = [run_line, *(r for r in doc.runs if r != run_line)][:MAX_RUNS]
    merged = ContextDoc(doc.preamble, merge_touched(doc.touched, touched), runs)
    compacted = ContextDoc(doc.preamble, compact_touched(merged.touched), runs)
    return render_context(merged), render_context(compacted)
