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
from pydantic import BaseModel, Field, ValidationError

from slmcode import trust
from slmcode.errors import ConfigError
from slmcode.settings import (
    SETTING_KEYS,
    McpServer,
    ProfileOverride,
    RoleModel,
    Settings,
    is_loopback_url,
)
from slmcode.store.paths import CONFIG_FILE, state_path, user_state_dir
from slmcode.store.yamlread import Parsed, WorkspaceFiles, config_mapping, parse_file, read_workspace

__all__ = [
    "DEFAULT_SOURCE",
    "ENV_PREFIX",
    "SETTING_KEYS",
    "LoadedSettings",
    "McpServer",
    "ProfileOverride",
    "RoleModel",
    "Settings",
    "flags_still_valid",
    "is_loopback_url",
    "load_settings",
    "project_config_path",
    "read_yaml_file",
    "user_config_path",
]

ENV_PREFIX = "SLMCODE_"
DEFAULT_SOURCE = "default"
TRUSTED, UNTRUSTED, NOTHING_TO_TRUST = "trusted", "not trusted", "nothing to trust"


class LoadedSettings(BaseModel):
    """The merged settings and, for every key, the source that set it; whether the workspace's own widening
    settings were trusted, and which were ignored because they were not (slmcode.trust)."""

    settings: Settings
    sources: dict[str, str]
    trust: str = NOTHING_TO_TRUST
    ignored: list[str] = Field(default_factory=list)


def user_config_path() -> Path:
    return user_state_dir() / CONFIG_FILE


def project_config_path(workspace: Path) -> Path:
    return state_path(workspace, CONFIG_FILE)


def _describe_error(err: Mapping[str, Any]) -> tuple[str, str]:
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
    return _mapping(parse_file(path))


def _mapping(parsed: Parsed) -> dict[str, Any]:
    found = config_mapping(parsed)
    if isinstance(found, str):
        where = f"line {parsed.line}: " if parsed.line is not None else ""
        raise ConfigError(f"{parsed.path}: {where}{found}")
    return found


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
    """Merge every source, later wins; each layer is validated on its own so errors name their source. An
    untrusted workspace's widening settings are left out (slmcode.trust): LoadedSettings says which."""
    environ = os.environ if environ is None else environ
    user_path = user_config_path()
    user = [(str(user_path), read_yaml_file(user_path))] if user_path.is_file() else []
    # The workspace's files are read once: trust and the merge below decide from this one reading.
    files = read_workspace(Path(workspace)) if workspace is not None else None
    project = [(str(files.config.path), _mapping(files.config))] if files and files.config else []
    broken = [b for b in files.blocks if b.problem is not None] if files else []
    if broken:  # refused here, before trust says anything about a workspace it cannot read
        where = f"{broken[0].path}:{broken[0].line}" if broken[0].line is not None else str(broken[0].path)
        raise ConfigError(f"{where}: {broken[0].problem}")
    later = [("environment", _env_values(environ)), ("flag", {k: v for k, v in (flags or {}).items() if v is not None})]
    for source, data in [*user, *project, *later]:
        _validate(data, source)  # reports the layer's own mistakes with its name
    status, ignored = NOTHING_TO_TRUST, list[str]()
    if workspace is not None and files is not None:
        status, ignored, project = _trusted_part(Path(workspace), files, project, user, later)
    merged: dict[str, Any] = {}
    sources = {key: DEFAULT_SOURCE for key in SETTING_KEYS}
    for source, data in [*user, *project, *later]:
        for key, value in data.items():
            merged[key] = value
            sources[key] = f"env {ENV_PREFIX}{key.upper()}" if source == "environment" else source
    return LoadedSettings(settings=_validate(merged, "settings"), sources=sources, trust=status, ignored=ignored)


Layer = tuple[str, dict[str, Any]]


def _trusted_part(
    workspace: Path, files: WorkspaceFiles, project: list[Layer], user: list[Layer], later: list[Layer]
) -> tuple[str, list[str], list[Layer]]:
    """(trust status, what was ignored, the project layer to merge): all of it when the workspace is trusted
    or asks for nothing that needs trust, else only what narrows the user's own settings."""
    own_layers = [*user, *later]
    own = _validate({k: v for _, data in own_layers for k, v in data.items()}, "settings")
    overridden = {key for _, data in later for key in data}
    kept, ignored = project, list[str]()
    for source, data in project:
        narrowed, ignored = trust.keep_narrowing(data, _validate(data, source), own, overridden)
        kept = [(source, narrowed)]
    # A block file that cannot be parsed is the block loader's one error line; trust's digest counts it too.
    ignored += [block.ref for block in trust.widening_blocks(files)]
    if not ignored:
        return NOTHING_TO_TRUST, [], project
    if trust.is_trusted(workspace, files=files):
        return TRUSTED, [], project
    return UNTRUSTED, ignored, kept


def flags_still_valid(saved: dict[str, Any]) -> dict[str, Any]:
    """A run's saved flags, less those the environment now sets: SLMCODE_BASE_URL on a resume moves the run."""
    return {k: v for k, v in saved.items() if ENV_PREFIX + k.upper() not in os.environ}
