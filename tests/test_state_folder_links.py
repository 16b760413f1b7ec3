"""A `.slmcode` that is a symlink (shipped with a repository), or a link inside it that leads out, would send
slmcode's own writes wherever it points: the command is refused with one line and the folder it names stays
empty. Judged by effect on a folder outside the workspace."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_cli import slmcode


@pytest.mark.parametrize("link", [".slmcode", ".slmcode/cache"])
def test_a_linked_state_folder_is_refused_in_one_line_and_nothing_is_written_through_it(
    tmp_path: Path, link: str
) -> None:
    workspace, outside = tmp_path / "ws", tmp_path / "outside"
    workspace.mkdir()
    outside.mkdir()
    (workspace / "a.py").write_text("def f():\n    return 1\n")
    (workspace / link).parent.mkdir(parents=True, exist_ok=True)
    (workspace / link).symlink_to(outside)
    done = slmcode("map", "-w", str(workspace))
    assert list(outside.iterdir()) == []
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "symlink" in done.stderr and "Traceback" not in done.stderr
