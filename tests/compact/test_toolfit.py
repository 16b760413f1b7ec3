"""What the worker's tool schemas cost every request, and which tools a small window can still afford."""

from __future__ import annotations

from pathlib import Path

from slmcode.budget.room import schema_tokens
from slmcode.budget.tokens import count_tokens
from slmcode.compact.toolfit import opening_room
from slmcode.config import Settings
from slmcode.nodes.prompts import SYSTEM, TOOL_CONTRACT
from slmcode.tools.context import ToolContext
from slmcode.tools.settings import ToolSettings
from slmcode.tools.toolset import make_tools, openai_spec


def test_the_whole_tool_set_costs_a_request_under_750_tokens(tmp_path: Path) -> None:
    tools = make_tools(ToolContext(workspace=tmp_path, settings=Settings(), skills=lambda name: None))
    assert [t.name for t in tools] == ["ws_read", "ws_list", "ws_search", "ws_write", "ws_edit", "ws_shell", "ws_skill"]
    assert schema_tokens([openai_spec(t) for t in tools]) <= 750  # the chat template's tool preamble included


def test_a_2560_token_window_keeps_the_search_and_leaves_out_only_the_listing(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("def main() -> None:\n    pass\n")
    settings = Settings(context_limit=2560)
    fitted = opening_room(settings, ToolSettings.of(settings), "worker", tmp_path)
    assert fitted.dropped == ("ws_list",)
    assert {"ws_read", "ws_search", "ws_edit", "ws_write", "ws_shell"} <= set(fitted.names)


def test_the_worker_pays_under_800_fixed_tokens_a_request_for_its_prompt_contract_and_tools(tmp_path: Path) -> None:
    settings = Settings(context_limit=8192)
    fitted = opening_room(settings, ToolSettings.of(settings), "worker", tmp_path)  # no skills: no ws_skill
    assert not fitted.dropped
    assert count_tokens(SYSTEM["worker"]) + count_tokens(TOOL_CONTRACT) + fitted.schema_tokens <= 800
