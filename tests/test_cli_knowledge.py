"""The knowledge and building-block commands as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from slmcode.cli import app
from slmcode.errors import RunNotFoundError
from slmcode.memory.flywheel import record_learning
from slmcode.trust import trust_workspace
from tests import inprocess

runner = CliRunner()


def invoke(*args: str) -> str:
    result = runner.invoke(app, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def go_repo(tmp_path: Path) -> Path:
    (tmp_path / "go.mod").write_text("module x\n")
    (tmp_path / "main.go").write_text("package main\n")
    return tmp_path


def test_init_writes_the_detected_pack_and_says_why(go_repo: Path) -> None:
    (go_repo / ".slmcode").mkdir()
    (go_repo / ".slmcode/config.yaml").write_text("max_parallel: 3\n")
    out = invoke("init", "-w", str(go_repo))
    assert "language_pack: go" in out and "chose go: score 40 (marker go.mod; 1/1 source files .go)" in out
    assert (go_repo / ".slmcode/config.yaml").read_text() == "max_parallel: 3\nlanguage_pack: go\n"


def test_init_keeps_the_users_comments_and_layout_in_config_yaml(go_repo: Path) -> None:
    # Before: init rewrote the file with yaml.safe_dump; every comment the user wrote was lost.
    config = go_repo / ".slmcode/config.yaml"
    config.parent.mkdir()
    mine = (
        "# my settings\nmodel: qwen2.5-coder:7b  # the good one\n\nlanguage_pack: python  # for now\nmax_parallel: 3\n"
    )
    config.write_text(mine)
    invoke("init", "-w", str(go_repo))
    assert config.read_text() == mine.replace("language_pack: python  # for now", "language_pack: go")
    config.write_text("# no pack yet\nmax_parallel: 3")  # no final newline
    invoke("init", "-w", str(go_repo), "--pack", "python")
    assert config.read_text() == "# no pack yet\nmax_parallel: 3\nlanguage_pack: python\n"


def test_apply_a_pack_copies_it_and_makes_it_active(go_repo: Path) -> None:
    out = invoke("blocks", "apply", "python", "-w", str(go_repo))
    assert "set language_pack: python" in out and "(was None)" not in out
    copied = sorted(p.name for p in (go_repo / ".slmcode/blocks").iterdir())
    assert copied == ["pack-python.yaml", "quality-python.yaml"]
    data = json.loads(invoke("compose", "add a flag", "-w", str(go_repo), "--json"))
    assert data["pack"] == "python" and data["sources"]["pack/python"].startswith("project ")
    assert "blocks valid" in invoke("blocks", "validate", "-w", str(go_repo))


def test_compose_shows_phases_team_and_budgets_without_a_model(go_repo: Path) -> None:
    blocks = go_repo / ".slmcode/blocks"
    blocks.mkdir(parents=True)
    (blocks / "p.yaml").write_text(
        "api_version: blocks/v1\nkind: pipeline\nid: default\nphases: [{name: worker}, {name: reviewer}]\n"
        "slots: [{name: security, after: reviewer, agent: security-reviewer, prompt: 'Audit {{query}}'}]\n"
    )
    trust_workspace(go_repo)  # the pipeline's slot applies in a workspace its user trusts
    data = json.loads(invoke("compose", "add login", "-w", str(go_repo), "--json", "--model", "qwen2.5-coder:7b"))
    assert [(p["name"], p["slot"]) for p in data["phases"]] == [
        ("worker", None),
        ("reviewer", None),
        ("security", "after reviewer"),
    ]
    assert data["budgets"]["worker"]["model"] == "qwen2.5-coder:7b"
    assert data["budgets"]["security-reviewer"]["role_share"] == 0.5
    assert data["quality"]["test"] == ["go test ./..."]
    assert "Audit add login" in invoke("compose", "add login", "-w", str(go_repo))


def test_memory_context_sessions_and_skills_after_a_run(tmp_path: Path) -> None:
    assert "No lessons yet" in invoke("memory", "-w", str(tmp_path))
    record_learning(
        tmp_path,
        run_id="run-42",
        query="fix the csv parser",
        lessons=["csv quoting needs the csv module"],
        touched=["src/csv_parser.py"],
        conventions=[("csv style", "use csv.reader", "Never split on commas by hand.")],
        summary="done",
    )
    assert "csv quoting needs the csv module" in invoke("memory", "-w", str(tmp_path))
    out = invoke("context", "-w", str(tmp_path), "--query", "csv parser")
    assert "- src/csv_parser.py" in out and "explore: CONTEXT.md lists 1 touched areas" in out
    assert "run-42" in invoke("session", "list", "-w", str(tmp_path))
    assert json.loads(invoke("session", "show", "run", "-w", str(tmp_path)))["query"] == "fix the csv parser"
    with pytest.raises(RunNotFoundError):
        runner.invoke(app, ["session", "show", "nope", "-w", str(tmp_path)], catch_exceptions=False)
    assert "csv-style" in invoke("skills", "list", "-w", str(tmp_path))
    assert "Never split on commas by hand." in invoke("skills", "show", "csv-style", "-w", str(tmp_path))


def test_a_malformed_block_exits_2_with_file_field_and_expectation(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("api_version: blocks/v1\nkind: agent\nid: a\nrole: r\nbudget_share: 3\n")
    result = inprocess.slmcode("blocks", "validate", str(bad))
    assert result.returncode == 2
    assert f"{bad}:5: agent 'a': field 'budget_share': expected less than or equal to 1, got 3" in result.stderr
