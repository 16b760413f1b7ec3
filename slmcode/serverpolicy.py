"""What a LangGraph server client may ask of a run: a workspace under an allowed root, and a safe subset of
settings.

The CLI and the Python API name their workspace and settings themselves (the user is at the keyboard). A server
client is anyone who can reach the port, so its context is hostile input: the workspace must be given, must
exist, and must lie under one of SLMCODE_ALLOWED_ROOTS (refuse all until the operator sets it); its overrides may
only pick a model and tune budgets, never widen the shell, name paths, send the code to an endpoint the
operator did not configure, or run more tasks at once than the operator set. The workspace's own widening
settings (its base_url among them) count only when the operator has trusted that folder (`slmcode trust`, in
the operator's home: slmcode.trust); otherwise they are ignored, with one line in the server's log.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from slmcode.config import Settings, load_settings
from slmcode.errors import ConfigError
from slmcode.trust import endpoints, untrusted_line

LOG = logging.getLogger(__name__)
ALLOWED_ROOTS_ENV = "SLMCODE_ALLOWED_ROOTS"
ALLOWED_BASE_URLS_ENV = "SLMCODE_ALLOWED_BASE_URLS"
# Knobs a client may turn: which model, and how much of it each role uses. Nothing here runs, reads or writes.
SAFE_OVERRIDES = frozenset(
    {
        "model",
        "base_url",
        "temperature",
        "request_timeout",
        "request_retries",
        "structured_output",
        "context_limit",
        "context_role_budget",
        "max_parallel",
        "max_retries",
        "max_tasks",
        "max_rounds",
        "think_passes",
        "clarify_mode",
        "escalate_timeout_seconds",
        "react_compact_at_percent",
        "react_keep_tool_results",
        "repomap_tokens",
        "skill_max_expanded",
        "include_readme",
        "permission",
        "approve",
        "team",
        "agent",
        "loop_guard",
        "loop_guard_calls",
    }
)
# A client may make a run stricter (stage patches, write nothing), never looser than the operator's setting.
SAFE_PERMISSIONS = frozenset({"review", "dry-run"})
# Overrides a client may only lower: each parallel task runs its own jailed commands on the operator's machine.
CAPPED_OVERRIDES = ("max_parallel",)


class ServerPolicyError(ConfigError, ValueError):
    """A server client asked for something the operator did not allow; the message says what, in one line.
    A ValueError too: the LangGraph server passes only those messages on to the client (others become
    "An internal error occurred")."""


def allowed_roots(environ: Mapping[str, str]) -> list[Path]:
    raw = environ.get(ALLOWED_ROOTS_ENV, "")
    return [Path(os.path.realpath(p)) for p in raw.split(os.pathsep) if p.strip()]


def check_workspace(raw: Any, environ: Mapping[str, str]) -> Path:
    """The client's workspace as a real folder under an allowed root, or a ServerPolicyError."""
    roots = allowed_roots(environ)
    if not roots:
        raise ServerPolicyError(
            f"this server accepts no workspace until {ALLOWED_ROOTS_ENV} names the folders "
            "runs may use (set it where `langgraph dev` starts)"
        )
    if not isinstance(raw, str) or not raw.strip() or raw.strip() == ".":
        raise ServerPolicyError('the run\'s context must name its workspace: {"workspace": "/path/to/repo"}')
    if "\x00" in raw or not os.path.isabs(raw):
        raise ServerPolicyError(f"workspace {raw!r} must be an absolute path")
    real = Path(os.path.realpath(raw))
    if not real.is_dir():
        raise ServerPolicyError(f"workspace {raw} does not exist or is not a folder (it is never created)")
    if not any(real == root or root in real.parents for root in roots):
        shown = os.pathsep.join(map(str, roots))
        raise ServerPolicyError(f"workspace {raw} is not under {ALLOWED_ROOTS_ENV} ({shown})")
    return real


def _normal_url(url: str) -> str:
    return url.strip().rstrip("/")


def check_overrides(overrides: Any, configured: Settings, environ: Mapping[str, str]) -> dict[str, Any]:
    """The client's overrides if each is in the safe subset; base_url only among the operator's endpoints."""
    if overrides is None:
        return {}
    if not isinstance(overrides, dict):
        raise ServerPolicyError("context.overrides must be a JSON object of settings")
    refused = sorted(str(k) for k in overrides if k not in SAFE_OVERRIDES)
    if refused:
        raise ServerPolicyError(
            f"context.overrides may not set {', '.join(refused)} (allowed: {', '.join(sorted(SAFE_OVERRIDES))})"
        )
    permission = overrides.get("permission")
    if permission is not None and permission not in SAFE_PERMISSIONS:
        raise ServerPolicyError(f"context.overrides may set permission only to {' or '.join(sorted(SAFE_PERMISSIONS))}")
    for key in CAPPED_OVERRIDES:
        value, cap = overrides.get(key), getattr(configured, key)
        if value is not None and (type(value) is not int or value > cap):
            raise ServerPolicyError(
                f"context.overrides.{key} may be a whole number at most {cap} (the operator's setting); "
                f"got {str(value)[:40]!r}"
            )
    base_url = overrides.get("base_url")
    if base_url is not None:
        known = {_normal_url(u) for u in environ.get(ALLOWED_BASE_URLS_ENV, "").split(",") if u.strip()}
        known |= endpoints(configured)  # the run's, each role's and each role's fallback's
        if not isinstance(base_url, str) or _normal_url(base_url) not in known:
            raise ServerPolicyError(
                f"context.overrides.base_url must be one of the configured endpoints "
                f"({ALLOWED_BASE_URLS_ENV}, the operator's config or a trusted workspace's); "
                f"got {str(base_url)[:80]!r}"
            )
    return dict(overrides)


def server_settings(workspace: Any, overrides: Any, environ: Mapping[str, str] | None = None) -> tuple[Path, Settings]:
    """The workspace and settings of a run a server client started, each checked against the operator's rules."""
    environ = os.environ if environ is None else environ
    root = check_workspace(workspace, environ)
    configured = load_settings(root, environ=environ)
    if configured.ignored:
        LOG.warning(untrusted_line(root, configured.ignored))
    checked = check_overrides(overrides, configured.settings, environ)
    return root, load_settings(root, flags=checked, environ=environ).settings
