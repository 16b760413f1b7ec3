"""Where settings come from: defaults < ~/.slmcode/config.yaml < .slmcode/config.yaml < SLMCODE_* environment
variables < CLI flags, merged into one Settings (slmcode.settings), remembering where every value came from.
A mistake in any layer is one ConfigError naming that layer and the key."""

from __future__ import annotations

import difflib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from slmcode.errors import ConfigError, not_utf8
from slmcode.settings import (
    SETTING_KEYS,
    McpServer,
    ProfileOverride,
    RoleModel,
    Settings,
    is_loopback_url,
)
from slmcode.store.paths import CONFIG_FILE, state_path, user_state_dir

__all__ = ["DEFAULT_SOURCE", "ENV_PREFIX", "SETTING_KEYS", "LoadedSettings", "McpServer", "ProfileOverride",
           "RoleModel", "Settings", "is_loopback_url", "load_settings", "project_config_path", "read_yaml_file",
           "user_config_path"]

ENV_PREFIX = "SLMCODE_"
DEFAULT_SOURCE = "default"


class LoadedSettings(BaseModel):
    """The merged settings and, for every key, the source that set it."""

    settings: Settings
    sources: dict[str, str]


def user_config_path() -> Path:
    return user_state_dir() / CONFIG_FILE


def project_config_path(workspace: Path) -> Path:
    return state_path(workspace, CONFIG_FILE)


def _describe_error(err: dict[str, Any]) -> tuple[str, str]:
    key = ".".join(str(p) for p in err.get("loc", ())) or "(top level)"
    if err.get("type") == "extra_forbidden":
        close = difflib.get_close_matches(key.split(".")[-1], SETTING_KEYS, n=1)
        hint = f"did you mean '{close[0]}'?" if close else "`slmcode config show` lists the known keys"
        return key, f"unknown key ({hint})"
    given = err.get("input")
    shown = json.dumps(given, default=str)[:60] if given is not None else "nothing"
    expected = str(err.get("msg", "a valid value")).removeprefix("Input should be ").removeprefix("Value error, ")
    return key, f"expected {expected}, got {shown}"


def _validate(data: Mapping[str, Any], source: str) -> Settings:
    try:
        return Settings.model_validate(dict(data))
    except ValidationError as exc:
        key, what = _describe_error(exc.errors()[0])
        raise ConfigError(f"{source}: key '{key}': {what}") from None


def read_yaml_file(path: Path) -> dict[str, Any]:
    """A config file as a mapping; broken YAML or a non-mapping top level is a ConfigError."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(not_utf8(path, exc)) from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        problem = getattr(exc, "problem", None) or "not valid YAML"
        raise ConfigError(f"{path}: {where}broken YAML ({problem})") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of settings at the top level, got {type(data).__name__}")
    return data


def _env_values(environ: Mapping[str, str]) -> dict[str, Any]:
    """SLMCODE_<KEY> for every known key; structured values (lists, mappings) are parsed as YAML."""
    values: dict[str, Any] = {}
    for key, field in Settings.model_fields.items():
        raw = environ.get(ENV_PREFIX + key.upper())
        if raw is None:
            continue
        annotation = str(field.annotation)
        if any(t in annotation for t in ("dict", "list")):
            try:
                values[key] = yaml.safe_load(raw)
            except yaml.YAMLError:
                raise ConfigError(f"{ENV_PREFIX}{key.upper()}: expected YAML or JSON, got {raw[:60]!r}") from None
        else:
            values[key] = raw
    return values


def load_settings(
    workspace: Path | str | None = None,
    flags: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> LoadedSettings:
    """Merge every source, later wins; each layer is validated on its own so errors name their source."""
    environ = os.environ if environ is None else environ
    merged: dict[str, Any] = {}
    sources = {key: DEFAULT_SOURCE for key in SETTING_KEYS}
    layers: list[tuple[str, dict[str, Any]]] = []
    user_path = user_config_path()
    if user_path.is_file():
        layers.append((str(user_path), read_yaml_file(user_path)))
    if workspace is not None:
        project_path = project_config_path(Path(workspace))
        if project_path.is_file():
            layers.append((str(project_path), read_yaml_file(project_path)))
    layers.append(("environment", _env_values(environ)))
    layers.append(("flag", {k: v for k, v in (flags or {}).items() if v is not None}))
    for source, data in layers:
        _validate(data, source)  # reports the layer's own mistakes with its name
        for key, value in data.items():
            merged[key] = value
            sources[key] = f"env {ENV_PREFIX}{key.upper()}" if source == "environment" else source
    return LoadedSettings(settings=_validate(merged, "settings"), sources=sources)
