"""Snapshot files under tests/snapshots: a prompt, a tool schema or the graph's shape never changes by accident.
Set UPDATE_SNAPSHOTS=1 to rewrite them after a deliberate change, and review the diff."""

from __future__ import annotations

import os
from pathlib import Path

SNAPSHOTS = Path(__file__).parent / "snapshots"


def assert_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if os.environ.get("UPDATE_SNAPSHOTS") == "1" or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        if os.environ.get("UPDATE_SNAPSHOTS") != "1":
            raise AssertionError(f"snapshot {name} did not exist: written, review and commit it")
    assert text == path.read_text(), f"{name} changed; if deliberate, rerun with UPDATE_SNAPSHOTS=1"
