"""The attack corpus for plan edits: whoever answers a plan question (a LangGraph server client, the web page,
`slmcode task`) is hostile here. A task edit naming a path outside the workspace is refused in one line; one
naming a file inside that is a symlink out of it is taken as written, and what counts is its effect: the
outside file's bytes never reach the model's pack. (The same edit through the server's front door, with the
model's requests as the judge, is in tests/board/test_server_attacks.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from slmcode.config import Settings
from slmcode.errors import PlanEditError
from slmcode.nodes.plan_edits import edited_plan
from slmcode.packs.builder import build_pack
from slmcode.state import Task
from tests.tools.test_attacks import SECRET

PLAN = [
    Task(id="r1t1", title="Add divide", description="add divide(a, b) to src/calc.py", focus_files=["src/calc.py"]),
    Task(id="r1test", title="Test the change", kind="test"),
]


@pytest.mark.parametrize(
    "path", ["/etc/passwd", "../outside/secret.txt", "~/.ssh/id_ed25519", "src/../../x", "/root/.ssh/id_ed25519"]
)
def test_a_focus_file_outside_the_workspace_is_refused(path: str) -> None:
    with pytest.raises(PlanEditError, match="is not a path inside the workspace"):
        edited_plan(PLAN, [{"id": "r1t1", "focus_files": ["src/calc.py", path]}, {"id": "r1test"}], round_no=1)


def test_a_focus_file_that_links_out_of_the_workspace_never_reaches_the_pack(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text(f"TOKEN = '{SECRET}'\n\n\ndef divide(a, b):\n    return a / b\n")
    ws = tmp_path / "ws"
    (ws / "src").mkdir(parents=True)
    (ws / "src" / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    (ws / "src" / "notes.py").symlink_to(outside / "secret.py")
    (ws / "linked").symlink_to(outside, target_is_directory=True)
    plan = edited_plan(
        PLAN,
        [{"id": "r1t1", "focus_files": ["src/calc.py", "src/notes.py", "linked/secret.py"]}, {"id": "r1test"}],
        round_no=1,
    )
    pack = build_pack(
        "worker", settings=Settings(), workspace=ws, query="Add divide", system_prompt="You code.", task=plan[0]
    )
    text = repr(pack)
    assert SECRET not in text
    assert "def add(a, b)" in text  # the real focus file is still there
