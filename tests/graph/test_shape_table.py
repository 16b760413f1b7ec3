"""The graph wired from the table of phases keeps the shape it had when it was one flat list: the same nodes
and the same edges (conditional or not) for the built-in pipeline and for pipelines that slot agents in and
skip phases. The node and edge sets were recorded from the flat list (tests/snapshots/graph_shapes.json)."""

from __future__ import annotations

import json
from pathlib import Path

from slmcode.blocks.compose import resolve_pipeline
from slmcode.config import Settings
from slmcode.graph.builder import build_graph
from slmcode.trust import trust_workspace
from tests.graph.pipelines import pipeline_block
from tests.snapshot import assert_snapshot

PIPELINES = {
    "a slot after reviewer, clarify never": (
        {"clarify": "never"},
        """
  - {name: security_check, after: reviewer, agent: security-reviewer, prompt: "Check {{query}}."}
""",
    ),
    "slots around clarify and planner, context replaced, learn never": (
        {"learn": "never"},
        """
  - {name: gather, replace: context, agent: security-reviewer, prompt: "Look at {{query}}."}
  - {name: precheck, before: planner, agent: security-reviewer, prompt: "Before {{query}}."}
  - {name: after_clarify_one, after: clarify, agent: security-reviewer, prompt: "One {{query}}."}
  - {name: after_clarify_two, after: clarify, agent: security-reviewer, prompt: "Two {{query}}."}
  - {name: after_qa, after: qa, agent: security-reviewer, prompt: "Last {{query}}."}
""",
    ),
}


def shape(graph) -> dict:
    drawn = graph.get_graph()
    return {
        "nodes": sorted(drawn.nodes),
        "edges": sorted([e.source, e.target, bool(e.conditional)] for e in drawn.edges),
    }


def pipeline_phases(workspace: Path, name: str):
    when, slots = PIPELINES[name]
    blocks = workspace / ".slmcode" / "blocks"
    blocks.mkdir(parents=True)
    (blocks / "pipeline.yaml").write_text(pipeline_block(when, slots))
    trust_workspace(workspace)  # a pipeline's slots apply once the user trusts the workspace
    return resolve_pipeline(workspace, Settings()).phases


def test_the_table_wires_the_graph_the_flat_list_wired(tmp_path: Path) -> None:
    shapes = {"built-in": shape(build_graph())}
    for i, name in enumerate(sorted(PIPELINES)):
        shapes[name] = shape(build_graph(None, pipeline_phases(tmp_path / str(i), name)))
    assert len({json.dumps(s) for s in shapes.values()}) == len(shapes)  # each pipeline shapes it its own way
    assert_snapshot("graph_shapes.json", json.dumps(shapes, indent=1) + "\n")
