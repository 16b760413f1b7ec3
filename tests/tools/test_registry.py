"""The one registry of tool specs: what the toolset offers, what the explorer may carry and which calls count as
changes all come from it, so a tool the registry calls a write is one that changes the workspace."""

from __future__ import annotations

from pathlib import Path

from langchain_core.messages import AIMessage, ToolMessage

from slmcode.compact.toolfit import role_tools
from slmcode.config import Settings
from slmcode.nodes.transcript import files_changed
from slmcode.tools import registry
from slmcode.tools.context import ToolContext
from slmcode.tools.toolset import make_tools, run_tool_call


def full_toolset(workspace: Path) -> list:  # type: ignore[type-arg]
    return make_tools(ToolContext(workspace=workspace, settings=Settings(), skills=lambda name: None))


def test_every_offered_tool_is_registered_and_the_explorer_carries_only_the_readers(tmp_path: Path) -> None:
    tools = full_toolset(tmp_path)
    assert [t.name for t in tools] == [spec.name for spec in registry.SPECS]
    assert [t.name for t in role_tools("explorer", tools)] == ["ws_read", "ws_list", "ws_search", "ws_skill"]
    assert [t.name for t in role_tools("worker", tools)] == [t.name for t in tools]
    assert [t.name for t in role_tools("security-reviewer", tools)] == [t.name for t in tools]  # a pipeline's agent


def test_the_corrector_fixing_known_files_is_offered_no_folder_listing(tmp_path: Path) -> None:
    names = [t.name for t in role_tools("corrector", full_toolset(tmp_path))]
    assert names == ["ws_read", "ws_search", "ws_write", "ws_edit", "ws_shell", "ws_skill"]
    assert registry.DROP_ORDER == ("ws_list", "ws_search", "ws_skill", "ws_shell")  # reading and editing stay


def test_the_tools_the_registry_calls_writes_are_the_ones_that_change_files(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    tools = full_toolset(tmp_path)
    calls = [
        ("ws_read", {"path": "a.py"}),
        ("ws_search", {"pattern": "x"}),
        ("ws_list", {}),
        ("ws_write", {"path": "b.py", "content": "y = 2\n"}),
        ("ws_edit", {"path": "a.py", "old_str": "x = 1", "new_str": "x = 3"}),
    ]
    messages: list = []  # type: ignore[type-arg]
    for n, (name, args) in enumerate(calls):
        before = {p.name: p.read_text() for p in tmp_path.iterdir() if p.is_file()}
        call = {"name": name, "args": args, "id": f"c{n}"}
        result = run_tool_call(tools, call)
        after = {p.name: p.read_text() for p in tmp_path.iterdir() if p.is_file()}
        assert (before != after) == (name in registry.WRITE_TOOLS), name
        messages += [AIMessage(content="", tool_calls=[call]), result]
    assert all(isinstance(m, ToolMessage) for m in messages[1::2])
    assert files_changed(messages) == ["a.py", "b.py"]
