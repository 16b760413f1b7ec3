"""The trust book: the workspaces the user trusts, in the user's own folder (~/.slmcode/trusted.json, or
$SLMCODE_HOME/trusted.json), never in a workspace, so a repository cannot trust itself.

Each entry is keyed by the folder's real path and holds the digest of what was trusted (slmcode.trust computes
it over the workspace's settings that need trust): a change to them no longer matches, and asks again. A book
that cannot be read trusts nothing (the safe reading); the next `slmcode trust` writes it whole again.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

from slmcode.store.atomic import atomic_write_text
from slmcode.store.paths import TRUST_BOOK, user_state_dir

BOOK_VERSION = 1


@dataclass(frozen=True)
class Entry:
    folder: str  # the real path
    digest: str
    trusted_at: str  # ISO 8601, UTC
    trusted: tuple[str, ...] = ()  # what the user saw when trusting, one line each


def folder_key(workspace: Path | str) -> str:
    """A workspace as the book names it: its real path (a symlink or `..` names the same folder)."""
    return os.path.realpath(workspace)


def book_path(environ: Mapping[str, str] | None = None) -> Path:
    return user_state_dir(environ) / TRUST_BOOK


def entries(environ: Mapping[str, str] | None = None) -> dict[str, Entry]:
    """Every trusted folder by real path; an unreadable or foreign book is an empty one."""
    try:
        data = json.loads(book_path(environ).read_text(encoding="utf-8"))
        folders = data["folders"] if data.get("version") == BOOK_VERSION else {}
        return {
            key: Entry(key, str(e["digest"]), str(e["trusted_at"]), tuple(map(str, e.get("trusted", ()))))
            for key, e in sorted(folders.items())
        }
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return {}


def entry(workspace: Path | str, environ: Mapping[str, str] | None = None) -> Entry | None:
    return entries(environ).get(folder_key(workspace))


def _write(found: dict[str, Entry], environ: Mapping[str, str] | None) -> None:
    folders = {key: {k: v for k, v in asdict(e).items() if k != "folder"} for key, e in sorted(found.items())}
    atomic_write_text(book_path(environ), json.dumps({"version": BOOK_VERSION, "folders": folders}, indent=2) + "\n")


def record(workspace: Path | str, digest: str, trusted: list[str], environ: Mapping[str, str] | None = None) -> Entry:
    """Trust `workspace` as its settings are now (`digest`); replaces an earlier entry for the same folder."""
    key = folder_key(workspace)
    now = datetime.now(UTC).isoformat(timespec="seconds")
    found = entries(environ)
    found[key] = Entry(key, digest, now, tuple(trusted))
    _write(found, environ)
    return found[key]


def revoke(workspace: Path | str, environ: Mapping[str, str] | None = None) -> Entry | None:
    """Forget `workspace`; the entry that was removed, or None when it was not trusted."""
    found = entries(environ)
    gone = found.pop(folder_key(workspace), None)
    if gone is not None:
        _write(found, environ)
    return gone
