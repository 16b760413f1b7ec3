"""The sandbox's scratch folders (HOME/TMPDIR per workspace, under ~/.cache/slmcode/scratch) do not pile up: a
folder whose workspace is gone is swept when a new one is made, and a live workspace keeps its warm caches."""

from __future__ import annotations

from pathlib import Path

import pytest

from slmcode.environment.sandboxenv import scratch_dir, scratch_root


@pytest.fixture
def temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The scratch folders' parent, under a cache folder of the test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return scratch_root()


def test_a_gone_workspace_loses_its_scratch_and_a_live_one_keeps_its_cache(tmp_path: Path, temp: Path) -> None:
    live, gone, new = (tmp_path / name for name in ("live", "gone", "new"))
    for workspace in (live, gone, new):
        workspace.mkdir()
    kept = scratch_dir(live)
    (kept / "home" / "cache.bin").write_text("warm")
    stale = scratch_dir(gone)
    gone.rmdir()  # a test's or a worktree's temporary workspace, removed after its run

    made = scratch_dir(new)

    assert not stale.exists()
    assert (kept / "home" / "cache.bin").read_text() == "warm"
    assert sorted(p.name for p in temp.iterdir()) == sorted([kept.name, made.name])


def test_a_scratch_folder_without_an_owner_record_is_left_alone(tmp_path: Path, temp: Path) -> None:
    """Folders made before the owner record existed (or by another program with the same prefix) are not ours to
    judge."""
    older = temp / "0123456789abcdef"
    (older / "home").mkdir(parents=True)
    workspace = tmp_path / "w"
    workspace.mkdir()
    scratch_dir(workspace)
    assert older.is_dir()
