"""The role table: a role pinned to another model gets that model's window everywhere it is used."""

from __future__ import annotations

import pytest

from slmcode.config import RoleModel, Settings
from slmcode.errors import EndpointError
from slmcode.providers.roles import RoleTable

BIG, SMALL = "qwen2.5-coder:7b", "smollm2:135m"


def settings(**update: object) -> Settings:
    return Settings(model=BIG, base_url="http://127.0.0.1:9/v1", **update)


def test_a_role_pinned_to_a_small_model_gets_its_window_and_a_client_held_to_it() -> None:
    table = RoleTable(settings(roles={"reviewer": RoleModel(model=SMALL)}))
    worker, reviewer = table["worker"], table["reviewer"]
    assert reviewer.binding.model == SMALL and worker.binding.model == BIG
    assert reviewer.budget.window < worker.budget.window
    client = table.client("reviewer")
    assert client.model_name == SMALL
    assert client.prompt_limit == reviewer.budget.prompt_limit < worker.budget.prompt_limit


def test_an_agent_share_changes_only_its_role() -> None:
    plain, shared = RoleTable(settings()), RoleTable(settings(), {"reviewer": 0.25})
    assert shared["reviewer"].budget.available < plain["reviewer"].budget.available
    assert shared["reviewer"].settings.context_role_budget["reviewer"] == 0.25
    assert shared["worker"].budget == plain["worker"].budget


def test_each_role_is_resolved_once_and_its_client_reused() -> None:
    table = RoleTable(settings())
    assert table["worker"] is table["worker"]
    assert table.client("worker") is table.client("worker")
    assert table.client("worker", max_tokens=64) is not table.client("worker")


def test_budgets_need_no_server_but_a_client_names_what_is_missing() -> None:
    table = RoleTable(Settings(model=BIG))
    assert table["worker"].budget.available > 0
    with pytest.raises(EndpointError, match="no model server configured"):
        table.client("worker")
