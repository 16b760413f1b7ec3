"""Disk evidence for the reviewer: what the changed files look like now, never what the worker claimed, fitted
to the room its request leaves (however many files a task changed, the request is sent)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path

from slmcode.budget.tokens import TokenCounter, default_counter
from slmcode.environment import Environment, LocalEnvironment
from slmcode.environment.filenames import real_name
from slmcode.nodes import prompts
from slmcode.packs.sections import fit_lines
from slmcode.state import Verdict

DIFF_CHARS = 1500  # a file's diff or head is cut here first: one file never crowds out the others
SNIFF_BYTES = 8000  # a NUL in a file's first bytes: binary, shown by its size (git's own test)


def _git_diff(env: Environment, path: str) -> str | None:
    # Inside the wall, and no external diff or textconv driver: the workspace's config or .gitattributes could
    # name any program.
    try:
        done = env.git("diff", "--no-color", "--no-ext-diff", "--no-textconv", "--", path, write=False, timeout=20)
    except (OSError, TimeoutError):
        return None
    text = done.stdout.decode("utf-8", errors="replace") if done.ok else ""  # a Latin-1 file's diff too
    return text if text.strip() else None


def _new_file(env: Environment, rel: str, inside: str) -> str:
    try:  # through the environment: a symlink out of the workspace carries no outside file in
        data = env.read(inside)
    except (OSError, ValueError) as exc:
        return prompts.EVIDENCE_NEW.format(path=rel, head=f"(not shown: {str(exc).splitlines()[0]})")
    if b"\0" in data[:SNIFF_BYTES]:
        return prompts.EVIDENCE_BINARY.format(path=rel, size=len(data))
    head = data[: DIFF_CHARS * 4].decode("utf-8", errors="replace")[:DIFF_CHARS]
    return prompts.EVIDENCE_NEW.format(path=rel, head=head)


def _share_out(parts: Sequence[tuple[str, str]], room: int, counter: TokenCounter) -> list[str]:
    """`parts` in `room` tokens, fairly: the smaller parts whole, each larger one an equal share of what they
    leave, cut at a line; a part whose share cannot hold its first line is named only."""
    costs = [counter.count(text) for _, text in parts]
    left = room - len(parts)  # a newline after each part
    shown = [""] * len(parts)
    for done, i in enumerate(sorted(range(len(parts)), key=lambda i: costs[i])):
        path, text = parts[i]
        share = left // (len(parts) - done)
        if costs[i] > share:
            fitted = fit_lines(text, share, counter)
            kept = fitted.text and fitted.cut_lines < len(text.splitlines())
            text = fitted.text if kept else prompts.EVIDENCE_UNSHOWN.format(path=path)
        shown[i] = text
        left -= counter.count(text) + 1
    return shown


def fit_evidence(
    parts: Sequence[tuple[str, str]], room: int, first: Collection[str] = (), counter: TokenCounter | None = None
) -> str:
    """The files' parts (path, text) in `room` tokens, in their order. The files in `first` (the task's focus
    files) share the room before the others, less what naming each other file takes: the change the task was
    for is shown whole where it can be, and no changed file goes unmentioned."""
    counter = counter or default_counter()
    ahead = [i for i, (path, _) in enumerate(parts) if path in first]
    behind = [i for i in range(len(parts)) if i not in ahead]
    names = sum(counter.count(prompts.EVIDENCE_UNSHOWN.format(path=parts[i][0])) + 1 for i in behind)
    shown = dict(zip(ahead, _share_out([parts[i] for i in ahead], room - names, counter), strict=True))
    used = sum(counter.count(text) + 1 for text in shown.values())
    shown |= dict(zip(behind, _share_out([parts[i] for i in behind], room - used, counter), strict=True))
    joined = "\n".join(shown[i] for i in range(len(parts)))
    return fit_lines(joined, room, counter).text  # on a tiny room even the names may not all fit


def disk_evidence(
    workspace: Path, files: Sequence[str], room: int, first: Collection[str] = ()
) -> tuple[str, list[str]]:
    """(evidence text in at most `room` tokens, the files in `first` shown first; files claimed but missing on
    disk)."""
    env = LocalEnvironment(workspace)
    parts: list[tuple[str, str]] = []
    missing: list[str] = []
    for rel in files:
        path = workspace / rel
        if not path.is_file() and (workspace / real_name(rel)).is_file():
            path = workspace / real_name(rel)  # a non-UTF-8 name as the tools showed it (\xNN)
        if not path.is_file():
            missing.append(rel)
            parts.append((rel, f"{rel}: MISSING on disk"))
            continue
        inside = path.relative_to(workspace).as_posix()
        diff = _git_diff(env, inside)
        parts.append((rel, _new_file(env, rel, inside) if diff is None else diff[:DIFF_CHARS]))
    return (fit_evidence(parts, room, first) if parts else "(no files changed)"), missing


def verdict_table(verdicts: Sequence[Verdict]) -> str:
    return (
        "\n".join(
            f"| {v.status} | {v.criterion.priority} | {v.criterion.text} | {v.criterion.verify or '-'} |"
            for v in verdicts
        )
        or "(no checks)"
    )
