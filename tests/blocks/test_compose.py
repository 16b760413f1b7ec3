"""What the graph builder receives: phases after slots, the agents filling them, quality commands."""

from __future__ import annotations

from pathlib import Path

import pytest

from slmcode.blocks.compose import render_prompt, resolve_pipeline
from slmcode.config import Settings
from slmcode.errors import BlockError
from slmcode.providers.roles import team_budgets
from slmcode.trust import trust_workspace

HEAD = "api_version: blocks/v1\n"
DEFAULT_PHASES = [
    "context", "clarify", "scope_judge", "planner", "splitter", "coordinator", "worker",
    "verify", "reviewer", "corrector", "escalate", "tester", "qa", "learn",
]  # fmt: skip


def project_block(ws: Path, name: str, text: str) -> None:
    """A block of the project's own, which its user trusts (a pipeline's slots need that: slmcode.trust)."""
    folder = ws / ".slmcode/blocks"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(HEAD + text)
    trust_workspace(ws, env(ws))


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    (tmp_path / "go.mod").write_text("module x\n")
    (tmp_path / "main.go").write_text("package main\n")
    return tmp_path


def env(ws: Path) -> dict[str, str]:
    return {"SLMCODE_HOME": str(ws / "no-home")}


def test_default_pipeline_for_a_detected_pack(ws: Path) -> None:
    resolved = resolve_pipeline(ws, Settings(), env(ws))
    assert resolved.pack == "go" and resolved.pack_reasons[0].startswith("chose go")
    assert [p.name for p in resolved.phases] == DEFAULT_PHASES
    assert all(p.agent == p.name and p.slot is None for p in resolved.phases)
    assert resolved.phase("corrector").when == "auto" and resolved.phase("learn").fail_mode == "continue"
    assert resolved.quality is not None and resolved.quality.test == ["go test ./..."]
    assert resolved.quality.programs() == ["go", "gofmt"]
    assert resolved.sources["pack/go"].startswith("builtin ")


def test_configured_pack_wins_over_detection(ws: Path) -> None:
    resolved = resolve_pipeline(ws, Settings(language_pack="rust"), env(ws))
    assert resolved.pack == "rust" and resolved.pack_reasons == ["language_pack 'rust' is set in the settings"]
    with pytest.raises(BlockError, match=r"setting language_pack: expected one of cpp, dotnet, .*, got 'cobol'"):
        resolve_pipeline(ws, Settings(language_pack="cobol"), env(ws))


def test_a_project_agent_replaces_the_builtin_one(ws: Path) -> None:
    project_block(ws, "reviewer.yaml", "kind: agent\nid: reviewer\nrole: reviewer\nprompt: 'Be strict: {{plan}}'\n")
    resolved = resolve_pipeline(ws, Settings(), env(ws))
    assert resolved.phase("reviewer").prompt == "Be strict: {{plan}}"
    assert resolved.sources["agent/reviewer"].startswith("project ")


def test_an_agent_with_overrides_stands_in_wherever_the_other_is_used(ws: Path) -> None:
    project_block(ws, "strict.yaml", "kind: agent\nid: strict\nrole: reviewer\noverrides: reviewer\nprompt: strict\n")
    resolved = resolve_pipeline(ws, Settings(), env(ws))
    assert (resolved.phase("reviewer").agent, resolved.phase("reviewer").prompt) == ("strict", "strict")
    assert "reviewer" not in resolved.agents and "strict" in resolved.agents


def test_slots_go_before_after_and_in_place_of_phases(ws: Path) -> None:
    project_block(
        ws,
        "pipeline.yaml",
        "kind: pipeline\nid: default\nphases: [{name: planner}, {name: worker}, {name: reviewer}, {name: learn}]\n"
        "slots:\n"
        "  - {name: security, after: reviewer, agent: security-reviewer, fail_mode: abort, persist_to: memory}\n"
        "  - {name: docs, after: reviewer, agent: worker, prompt: 'Document {{query}}'}\n"
        "  - {name: lint_first, before: worker, agent: tester}\n"
        "  - {name: solo, replace: planner, agent: worker}\n",
    )
    resolved = resolve_pipeline(ws, Settings(), env(ws))
    assert [(p.name, str(p.slot) if p.slot else None) for p in resolved.phases] == [
        ("solo", "replace planner"),
        ("lint_first", "before worker"),
        ("worker", None),
        ("reviewer", None),
        ("security", "after reviewer"),
        ("docs", "after reviewer"),
        ("learn", None),
    ]
    security = resolved.phase("security")
    assert (security.fail_mode, security.persist_to, security.role) == ("abort", "memory", "reviewer")
    assert security.prompt is not None and "{{plan}}" in security.prompt  # the agent's own template
    docs = resolved.phase("docs")
    assert (docs.fail_mode, docs.persist_to) == ("continue", "scratch")  # slot defaults
    assert render_prompt(docs.prompt or "", {"query": "the parser"}) == "Document the parser"


def test_a_slot_naming_an_unknown_agent_is_reported_with_the_pipeline_file(ws: Path) -> None:
    project_block(ws, "p.yaml", "kind: pipeline\nid: default\nphases: [{name: worker}]\nslots:\n"
                  "  - {name: s, after: worker, agent: ghost}\n")  # fmt: skip
    with pytest.raises(BlockError, match=r"project .*p\.yaml: slot 's' names agent 'ghost', which no agent block"):
        resolve_pipeline(ws, Settings(), env(ws))


def test_render_prompt_fills_every_placeholder() -> None:
    template = "{{ query }}|{{exploration}}|{{plan}}|{{phase}}"
    values = {"query": "q", "exploration": "e", "plan": "p", "phase": "reviewer"}
    assert render_prompt(template, values) == "q|e|p|reviewer"
    assert render_prompt(template, {}) == "|||"


def test_team_budgets_follow_roles_and_agent_shares(ws: Path) -> None:
    project_block(ws, "p.yaml", "kind: pipeline\nid: default\nphases: [{name: worker}, {name: planner}]\nslots:\n"
                  "  - {name: sec, after: worker, agent: security-reviewer}\n")  # fmt: skip
    settings = Settings(model="qwen2.5-coder:7b")
    budgets = team_budgets(resolve_pipeline(ws, settings, env(ws)).agents, settings)
    assert sorted(budgets) == ["planner", "security-reviewer", "worker"]
    assert budgets["planner"].role_share == 0.7 and budgets["security-reviewer"].role_share == 0.5
    assert budgets["worker"].available > budgets["planner"].available > budgets["security-reviewer"].available


def test_a_project_pack_brings_its_agents_and_must_name_real_blocks(ws: Path) -> None:
    project_block(ws, "pack.yaml", "kind: pack\nid: go\nquality: go\nagents: [security-reviewer]\n"
                  "detect: {markers: [go.mod], extensions: [.go], priority: 99}\n")  # fmt: skip
    resolved = resolve_pipeline(ws, Settings(), env(ws))
    assert "security-reviewer" in resolved.agents and resolved.sources["pack/go"].startswith("project ")
    project_block(ws, "pack.yaml", "kind: pack\nid: go\npipeline: lean\ndetect: {markers: [go.mod]}\n")
    with pytest.raises(BlockError, match=r"pack\.yaml: field 'pipeline': expected a pipeline block id, got 'lean'"):
        resolve_pipeline(ws, Settings(), env(ws))
