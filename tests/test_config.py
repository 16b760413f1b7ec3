from __future__ import annotations

from pathlib import Path

import pytest

from slmcode.config import load_settings, user_config_path
from slmcode.errors import ConfigError


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_later_sources_win_and_are_named(tmp_path: Path) -> None:
    write(user_config_path(), "max_parallel: 2\nmax_retries: 5\nthink_passes: 3\n")
    write(tmp_path / ".slmcode" / "config.yaml", "max_retries: 4\nthink_passes: 2\n")
    loaded = load_settings(tmp_path, flags={"think_passes": 1}, environ={"SLMCODE_MAX_PARALLEL": "6"})
    s = loaded.settings
    assert (s.max_parallel, s.max_retries, s.think_passes) == (6, 4, 1)
    assert loaded.sources["max_parallel"] == "env SLMCODE_MAX_PARALLEL"
    assert loaded.sources["max_retries"] == str(tmp_path / ".slmcode" / "config.yaml")
    assert loaded.sources["think_passes"] == "flag"


def test_structured_env_values_parse_as_yaml(tmp_path: Path) -> None:
    env = {"SLMCODE_MODEL_PROFILES": '{"my-coder": {"context_limit": 6000}}'}
    s = load_settings(tmp_path, environ=env).settings
    assert s.model_profiles["my-coder"].context_limit == 6000


def test_an_env_mistake_names_the_variable(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="environment: key 'permission'"):
        load_settings(tmp_path, environ={"SLMCODE_PERMISSION": "yolo"})


def test_a_top_level_list_is_refused(tmp_path: Path) -> None:
    write(tmp_path / ".slmcode" / "config.yaml", "- a\n- b\n")
    with pytest.raises(ConfigError, match="expected a mapping"):
        load_settings(tmp_path, environ={})
