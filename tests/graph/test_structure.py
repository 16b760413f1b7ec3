"""The graph's shape, the prompts and the tool schemas, snapshotted; the pipeline blocks reshape the graph."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from slmcode.blocks.compose import resolve_pipeline
from slmcode.config import Settings
from slmcode.errors import BlockError
from slmcode.graph.builder import build_graph
from slmcode.nodes.prompts import SYSTEM, TOOL_CONTRACT
from slmcode.tools.context import ToolContext
from slmcode.tools.toolset import make_tools
from slmcode.trust import trust_workspace
from tests.graph.pipelines import pipeline_block
from tests.snapshot import assert_snapshot

SLOT_PIPELINE = pipeline_block(
    {"clarify": "never"},
    """
  - {name: security_check, after: reviewer, agent: security-reviewer, prompt: "Check {{query}} for secrets.",
     fail_mode: %s}
""",
)


def test_the_default_graph_shape() -> None:
    assert_snapshot("graph.mmd", build_graph().get_graph().draw_mermaid())


def test_the_system_prompts_and_tool_contract() -> None:
    rendered = "\n\n".join(f"## {role}\n{text}" for role, text in sorted(SYSTEM.items()))
    assert_snapshot("system_prompts.md", rendered + f"\n\n## tool contract\n{TOOL_CONTRACT}\n")


def test_the_tool_schemas(tmp_path: Path) -> None:
    tools = make_tools(ToolContext(workspace=tmp_path, settings=Settings(), skills=lambda name: None))
    schemas = [{"name": t.name, "description": t.description, "args": t.args_schema.model_json_schema()} for t in tools]
    assert_snapshot("tool_schemas.json", json.dumps(schemas, indent=2, sort_keys=True) + "\n")


def write_pipeline(workspace: Path, fail_mode: str = "continue") -> None:
    blocks = workspace / ".slmcode" / "blocks"
    blocks.mkdir(parents=True, exist_ok=True)
    (blocks / "pipeline.yaml").write_text(SLOT_PIPELINE % fail_mode)
    trust_workspace(workspace)  # a pipeline's slots apply once the user trusts the workspace


def test_a_slot_after_a_phase_sits_there_and_a_skipped_phase_is_stood_in_for(tmp_path: Path) -> None:
    write_pipeline(tmp_path)
    pipeline = resolve_pipeline(tmp_path, Settings())
    mermaid = build_graph(None, pipeline.phases).get_graph().draw_mermaid()
    assert "reviewer --> security_check;" in mermaid
    assert "security_check -.-> corrector;" in mermaid and "reviewer -.-> corrector;" not in mermaid
    assert "clarify(clarify)" in mermaid  # skipped: a stand-in keeps the chain whole


def test_a_structural_phase_cannot_be_skipped(tmp_path: Path) -> None:
    write_pipeline(tmp_path)
    text = (tmp_path / ".slmcode" / "blocks" / "pipeline.yaml").read_text()
    (tmp_path / ".slmcode" / "blocks" / "pipeline.yaml").write_text(
        text.replace("{name: verify}", "{name: verify, when: never}")
    )
    trust_workspace(tmp_path)
    with pytest.raises(BlockError, match="phase 'verify' cannot be skipped"):
        build_graph(None, resolve_pipeline(tmp_path, Settings()).phases)
