"""Disk evidence for the reviewer: what the changed files look like now, never what the worker claimed."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from slmcode.environment import Environment, LocalEnvironment
from slmcode.environment.filenames import real_name
from slmcode.state import Verdict

DIFF_CHARS = 1500


def _git_diff(env: Environment, path: str) -> str | None:
    # Inside the wall, and no external diff or textconv driver: the workspace's config or .gitattributes could
    # name any program.
    try:
        done = env.git("diff", "--no-color", "--no-ext-diff", "--no-textconv", "--", path, write=False, timeout=20)
    except (OSError, TimeoutError):
        return None
    text = done.stdout.decode("utf-8", errors="replace") if done.ok else ""  # a Latin-1 file's diff too
    return text if text.strip() else None


def disk_evidence(workspace: Path, files: Sequence[str]) -> tuple[str, list[str]]:
    """(evidence text, files claimed but missing on disk)."""
    env = LocalEnvironment(workspace)
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
        inside = path.relative_to(workspace).as_posix()
        diff = _git_diff(env, inside)
        if diff is None:
            try:  # through the environment: a symlink out of the workspace carries no outside file in
                head = env.read(inside)[: DIFF_CHARS * 4].decode("utf-8", errors="replace")[:DIFF_CHARS]
            except (OSError, ValueError) as exc:
                head = f"(not shown: {str(exc).splitlines()[0]})"
            parts.append(f"{rel} (new or untracked):\n{head}")
        else:
            parts.append(diff[:DIFF_CHARS])
    return "\n".join(parts) or "(no files changed)", missing


def verdict_table(verdicts: Sequence[Verdict]) -> str:
    return (
        "\n".join(
            f"| {v.status} | {v.criterion.priority} | {v.criterion.text} | {v.criterion.verify or '-'} |"
            for v in verdicts
        )
        or "(no checks)"
    )
