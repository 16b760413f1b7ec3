"""A role's budget is worked out in one place, so what `slmcode budget` and `slmcode pack` promise is what a run
gives: a role with its own model is sized by that model's window (before: by the run's model), and the
explorer's first request is counted with the read-only tools a run offers it (before: all six)."""

from __future__ import annotations

import json
from pathlib import Path

from slmcode.budget.compute import role_budget
from slmcode.config import load_settings
from slmcode.providers.roles import RoleTable
from tests.faults.harness import slmcode_here
from tests.graph.scenario import make_repo

CONFIG = """model: qwen2.5-coder:7b
model_profiles:
  tiny-planner: {context_limit: 2048}
roles:
  planner: {model: tiny-planner}
"""


def workspace(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path)
    (repo / ".slmcode").mkdir(exist_ok=True)
    (repo / ".slmcode" / "config.yaml").write_text(CONFIG)
    return repo


def budget_json(repo: Path, role: str) -> dict:
    done = slmcode_here("budget", "--role", role, "-w", repo, "--json")
    assert done.code == 0, done.err
    return json.loads(done.out)


def test_a_role_with_its_own_model_is_sized_by_that_model_everywhere(tmp_path: Path) -> None:
    repo = workspace(tmp_path)
    settings = load_settings(repo).settings
    run_gives = RoleTable(settings)["planner"].budget
    assert run_gives.window == 2048  # the run's role table sizes the planner by its own model
    shown = budget_json(repo, "planner")
    assert (shown["window"], shown["available"]) == (run_gives.window, run_gives.available)
    assert role_budget(settings, "planner") == run_gives
    assert budget_json(repo, "worker")["window"] == RoleTable(settings)["worker"].budget.window > 2048
    packed = slmcode_here("pack", "--role", "planner", "-w", repo, "--query", "add divide", "--json")
    assert packed.code == 0, packed.err
    assert json.loads(packed.out)["budget"] == run_gives.available


def test_budget_counts_the_explorers_read_only_tools(tmp_path: Path) -> None:
    repo = workspace(tmp_path)
    explorer = budget_json(repo, "explorer")["worker_room"]
    worker = budget_json(repo, "worker")["worker_room"]
    assert set(explorer["tools"]) <= {"ws_read", "ws_list", "ws_search", "ws_skill"}
    assert "ws_read" in explorer["tools"] and "ws_edit" in worker["tools"]
    assert explorer["tool_schemas"] < worker["tool_schemas"]
