"""little-coder's write guard: ws_write onto a file that exists is refused and the model is told to edit it;
the quality block's gates.write_guard: off lets ws_write replace the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from slmcode import api
from slmcode.config import Settings
from slmcode.nodes.prompts import SYSTEM
from slmcode.tools.context import ToolContext
from slmcode.tools.toolset import make_tools, run_tool_call
from tests.fake_llm import FakeLLM, Reply, tool_call
from tests.gates.test_gates_run import edit_ops, edit_test, quality, run_tests
from tests.graph.scenario import script_planning

OPS = "calc/ops.py"
REFUSED = "Error: calc/ops.py already exists; use ws_edit to change it (ws_write only creates new files)."


def write(workspace: Path, *, guard: bool, path: str, content: str) -> str:
    ctx = ToolContext(workspace=workspace, settings=Settings(), write_guard=guard)
    return str(
        run_tool_call(
            make_tools(ctx), {"name": "ws_write", "args": {"path": path, "content": content}, "id": "call_1"}
        ).content
    )


def test_the_guard_refuses_an_existing_file_and_leaves_it_alone(tmp_path: Path) -> None:
    (tmp_path / "calc").mkdir()
    (tmp_path / OPS).write_text("def add(a, b):\n    return a + b\n")
    assert write(tmp_path, guard=True, path=OPS, content="") == REFUSED
    assert (tmp_path / OPS).read_text() == "def add(a, b):\n    return a + b\n"
    assert write(tmp_path, guard=True, path="calc/new.py", content="X = 1\n") == "created calc/new.py (1 lines)."


def test_with_the_guard_off_ws_write_replaces_the_file(tmp_path: Path) -> None:
    (tmp_path / OPS).parent.mkdir()
    (tmp_path / OPS).write_text("old\n")
    assert write(tmp_path, guard=False, path=OPS, content="new\n") == "overwrote calc/ops.py (1 lines)."
    assert (tmp_path / OPS).read_text() == "new\n"


def _run(fake: FakeLLM, repo: Path) -> api.RunResult:
    rewrite = Reply(tool_calls=[tool_call("ws_write", path=OPS, content="def divide(a, b):\n    return a / b\n")])
    fake.on(SYSTEM["worker"], rewrite, *edit_ops(), *edit_test(), run_tests(), Reply(content="Added divide."))
    fake.on(SYSTEM["tester"], run_tests(), Reply(content="Tests pass."))
    script_planning(fake)
    return api.run(
        "Add a divide operation", repo, base_url=fake.url, model="qwen2.5-coder:7b", request_retries=0, max_retries=0
    )  # the guard-off run breaks the file: no corrector, the run just ends


@pytest.mark.parametrize("guard", ["on", "off"])
def test_a_worker_that_rewrites_a_file_is_told_to_edit_it(fake_llm: FakeLLM, repo: Path, guard: str) -> None:
    quality(repo, gates=f"{{write_guard: {guard}}}")
    _run(fake_llm, repo)
    worker = [r for r in fake_llm.requests if str(r["messages"][0]["content"]).startswith(SYSTEM["worker"])]
    answer = next(m for m in worker[1]["messages"] if m["role"] == "tool")  # the result of the ws_write call
    ops = (repo / OPS).read_text()
    if guard == "on":
        assert answer["content"] == REFUSED
        assert "def add(" in ops and "return a / b" in ops  # the file kept, then edited
    else:
        assert answer["content"] == "overwrote calc/ops.py (2 lines)."
        assert "def add(" not in ops  # replaced whole: what the guard is there to prevent
