from __future__ import annotations

import pytest

from slmcode.config import RoleModel, Settings
from slmcode.errors import EndpointError
from slmcode.providers.factory import bind_role


def test_a_role_override_wins_over_the_top_level_model() -> None:
    settings = Settings(
        base_url="http://a/v1",
        model="qwen2.5-coder:7b",
        roles={"reviewer": RoleModel(model="qwen3:14b", base_url="http://b/v1/", temperature=0.0)},
    )
    assert bind_role(settings, "worker").model == "qwen2.5-coder:7b"
    reviewer = bind_role(settings, "reviewer")
    assert (reviewer.model, reviewer.base_url, reviewer.temperature) == ("qwen3:14b", "http://b/v1", 0.0)


def test_no_server_is_one_clear_error() -> None:
    with pytest.raises(EndpointError, match="--base-url"):
        bind_role(Settings(base_url=None), "worker")
