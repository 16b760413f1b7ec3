"""An attempt's copy of a file is its own: written in place (a command's `>>`), the workspace's file stays as it
was, whether the filesystem cloned it (shared blocks, copy-on-write) or copied its bytes."""

from __future__ import annotations

import os
from pathlib import Path

from slmcode.environment.clone import clone_file


def test_a_cloned_file_written_in_place_leaves_its_source_as_it_was(tmp_path: Path) -> None:
    source, target = tmp_path / "data.bin", tmp_path / "copy.bin"
    source.write_bytes(b"x" * 100_000)
    os.chmod(source, 0o640)
    clone_file(str(source), str(target))
    assert target.read_bytes() == source.read_bytes() and os.stat(target).st_mode == os.stat(source).st_mode
    assert os.stat(target).st_ino != os.stat(source).st_ino  # never a hard link
    with target.open("r+b") as inplace:
        inplace.write(b"y")
    with target.open("ab") as appended:
        appended.write(b"z")
    assert source.read_bytes() == b"x" * 100_000
