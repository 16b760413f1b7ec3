"""Disk evidence for the reviewer: what the changed files look like now, never what the worker claimed."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from slmcode.state import Verdict
from slmcode.tools.filenames import real_name
from slmcode.tools.gitsafe import read_git

DIFF_CHARS = 1500


def _git_diff(workspace: Path, path: str) -> str | None:
    # No external diff or textconv driver: the workspace's config or .gitattributes could name any program.
    out = read_git(workspace, "diff", "--no-color", "--no-ext-diff", "--no-textconv", "--", path, timeout=20)
    text = out.decode("utf-8", errors="replace") if out is not None else ""  # a Latin-1 file's diff too
    return text if text.strip() else None


def disk_evidence(workspace: Path, files: Sequence[str]) -> tuple[str, list[str]]:
    """(evidence text, files claimed but missing on disk)."""
    parts: list[str] = []
    missing: list[str] = []
    for rel in files:
        path = workspace / rel
        if not path.is_file() and (workspace / real_name(rel)).is_file():
            path = workspace / real_name(rel)  # a non-UTF-8 name as the tools showed it (\xNN)
        if not path.is_file():
            missing.append(rel)
            parts.append(f"{rel}: MISSING on disk")
            continue
        diff = _git_diff(workspace, str(path.relative_to(workspace)))
        if diff is None:
            head = path.read_text(encoding="utf-8", errors="replace")[:DIFF_CHARS]
            parts.append(f"{rel} (new or untracked):\n{head}")
        else:
            parts.append(diff[:DIFF_CHARS])
    return "\n".join(parts) or "(no files changed)", missing


def verdict_table(verdicts: Sequence[Verdict]) -> str:
    return "\n".join(
        f"| {v.status} | {v.criterion.priority} | {v.criterion.text} | {v.criterion.verify or '-'} |" for v in verdicts
    ) or "(no checks)"
