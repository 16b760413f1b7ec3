"""Workspace trust (docs/architecture.md#trust): a workspace's own `.slmcode/` may narrow what commands
can do, never widen it or redirect data until the user trusts that folder (`slmcode trust PATH`).

A cloned repository is someone else's text. Its `.slmcode/config.yaml` could open the sandbox (extra read paths,
the network, passed variables, higher limits), the shell (extra commands, `allow`, a longer deadline, more output
held in memory), the permission mode, git (commits on the user's own branch, a stash of their work), the number of
tasks run at once, or send the user's prompts and key elsewhere (base_url, a role's base_url or its fallback
model's, api_key, checkpoint_url, a model file the embedded server loads on the host); its blocks could name
commands that run (quality commands, which also feed the shell whitelist; a pipeline's hooks and slots; an agent
reaching MCP tools). Those are the widening settings. Untrusted, each is ignored unless it only narrows the user's
own value (sandbox_network: false, a stricter permission, a subset of a list, a lower limit, git_mode branch); the
user's own settings (~/.slmcode/config.yaml, SLMCODE_* variables, flags) are always trusted. Trust is recorded in
the user's folder (store/trustbook) with a digest of the workspace's widening settings, so a change to them asks
again. An agent block's `tools` need no trust: they only narrow what its phase already offers
(nodes/agent_fields.py), and the phases without tools (the reviewer's among them) get none from it.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from slmcode.redact import redacted
from slmcode.settings import Settings
from slmcode.store import trustbook
from slmcode.store.paths import state_dir, user_state_dir
from slmcode.store.yamlread import Parsed, WorkspaceFiles, config_mapping, read_workspace

# Besides every `sandbox_*` key, and the base_url inside `roles`.
WIDENING_KEYS = frozenset(
    {
        "base_url",
        "api_key",
        "model_path",
        "checkpoint_url",
        "mcp_servers",
        "shell_extra_commands",
        "shell_permission",
        "permission",
        # Limits on what the host gives: a command's deadline, the output held in memory, tasks at once.
        "shell_timeout_seconds",
        "tool_output_capture_bytes",
        "max_read_bytes",
        "max_parallel",
        # git on the user's repository: commits on their own branch (in-place), their uncommitted work stashed.
        "git_mode",
        "git_stash",
    }
)
SANDBOX_PREFIX = "sandbox_"
# Ordered from the strictest: a workspace may pick its user's value or a stricter one.
STRICTNESS = {
    "shell_permission": ("deny", "ask", "allow"),
    "permission": ("dry-run", "review", "auto"),
    # branch keeps the run off the user's branch until `slmcode accept`; off edits their files; in-place commits.
    "git_mode": ("branch", "off", "in-place"),
}
WIDENING_BLOCK_KINDS = ("quality", "pipeline")  # commands that run: quality commands; hooks and slots
MCP_TOOL_PREFIX = "mcp__"


def is_widening_key(key: str) -> bool:
    return key in WIDENING_KEYS or key.startswith(SANDBOX_PREFIX)


def is_widening_block(kind: str, tools: Sequence[str] | None = None) -> bool:
    """A block kind that names commands, or an agent that reaches MCP tools."""
    return kind in WIDENING_BLOCK_KINDS or (
        kind == "agent" and any(isinstance(t, str) and t.startswith(MCP_TOOL_PREFIX) for t in tools or ())
    )


# -- what the workspace asks for ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class WideningBlock:
    ref: str  # kind/id
    path: str  # relative to the workspace's .slmcode
    doc: dict[str, Any]


def widening_settings(data: Mapping[str, Any]) -> dict[str, Any]:
    """The widening entries of a config mapping (of `roles`, only each role's base_url)."""
    found = {k: v for k, v in data.items() if is_widening_key(str(k))}
    roles = data.get("roles")
    if isinstance(roles, dict):
        urls = {r: _role_urls(v) for r, v in roles.items() if isinstance(v, dict)}
        urls = {r: v for r, v in urls.items() if v}
        if urls:
            found["roles"] = urls
    return found


def _role_urls(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A role entry's servers: its base_url and its fallback model's (both send the user's prompts there)."""
    urls: dict[str, Any] = {"base_url": entry["base_url"]} if "base_url" in entry else {}
    fallback = entry.get("fallback")
    if isinstance(fallback, dict) and "base_url" in fallback:
        urls["fallback"] = {"base_url": fallback["base_url"]}
    return urls


def endpoints(settings: Settings) -> set[str]:
    """Every model server the settings name: the run's, each role's and each role's fallback's."""
    urls = [settings.base_url]
    for role in settings.roles.values():
        urls += [role.base_url, role.fallback.base_url if role.fallback else None]
    return {_normal_url(u) for u in urls if u}


def _broken(files: WorkspaceFiles) -> list[Parsed]:
    config = [files.config] if files.config is not None and isinstance(config_mapping(files.config), str) else []
    return [*config, *(p for p in files.blocks if p.problem is not None)]


def unparsed(files: WorkspaceFiles) -> list[str]:
    """The workspace's files that cannot be read or parsed, each as something to trust: never read as empty,
    so a text trust cannot read never passes as asking for nothing (the loaders refuse it with one line)."""
    return [str(p.path.relative_to(files.state)) for p in _broken(files)]


def _config(files: WorkspaceFiles) -> dict[str, Any]:
    found = config_mapping(files.config) if files.config is not None else {}
    return found if isinstance(found, dict) else {}


def widening_blocks(files: WorkspaceFiles) -> list[WideningBlock]:
    """The workspace's own blocks that need trust, from the one reading (validation is the loader's)."""
    found = []
    for parsed in files.blocks:
        for doc, _ in parsed.documents:
            tools = doc.get("tools") if isinstance(doc, dict) else None
            if isinstance(doc, dict) and is_widening_block(
                str(doc.get("kind")), tools if isinstance(tools, list) else None
            ):
                found.append(
                    WideningBlock(f"{doc.get('kind')}/{doc.get('id')}", str(parsed.path.relative_to(files.state)), doc)
                )
    return found


def workspace_digest(files: WorkspaceFiles) -> str:
    """What trust is keyed by, besides the folder: the workspace's widening settings and blocks, as they are,
    and the bytes of any file that cannot be parsed."""
    content: dict[str, Any] = {
        "settings": widening_settings(_config(files)),
        "blocks": [[b.path, b.doc] for b in widening_blocks(files)],
    }
    if broken := _broken(files):
        content["unparsed"] = [[str(p.path.relative_to(files.state)), p.digest] for p in broken]
    return hashlib.sha256(json.dumps(content, sort_keys=True, default=str).encode()).hexdigest()


# -- what an untrusted workspace keeps ------------------------------------------------------------------------


def narrows(key: str, value: Any, own: Any) -> bool:
    """A workspace's `value` for a widening key keeps within the user's own value `own`."""
    if value == own:
        return True
    if key in STRICTNESS:
        order = STRICTNESS[key]
        return value in order and own in order and order.index(value) <= order.index(own)
    if isinstance(value, bool) or isinstance(own, bool):
        return value is False  # sandbox_network: false; any other switch only by the same value
    if isinstance(value, int | float) and isinstance(own, int | float):
        return 0 < value <= own  # a lower limit (0 may mean none: never taken as narrower)
    if isinstance(value, list) and isinstance(own, list):
        return all(v in own for v in value)
    if isinstance(value, dict) and isinstance(own, dict):
        return all(k in own and own[k] == v for k, v in value.items())  # a subset of the user's MCP servers
    return False


def _normal_url(url: str) -> str:
    return url.strip().rstrip("/")


def keep_narrowing(
    data: Mapping[str, Any], given: Settings, own: Settings, overridden: set[str]
) -> tuple[dict[str, Any], list[str]]:
    """An untrusted workspace's config (`data`, validated as `given`) without the settings that would widen the
    user's `own`; and the names left out. Keys the user's environment or flags set (`overridden`) win anyway."""
    kept: dict[str, Any] = {}
    ignored: list[str] = []
    known = endpoints(own)
    for key, value in data.items():
        if key in overridden:
            kept[key] = value
        elif key == "roles" and isinstance(value, dict):
            kept[key] = {}
            for role, entry in value.items():
                url = given.roles[role].base_url
                if url is not None and _normal_url(url) not in known:
                    ignored.append(f"roles.{role}.base_url")
                    entry = {k: v for k, v in entry.items() if k != "base_url"}
                fallback = given.roles[role].fallback
                fallback_url = fallback.base_url if fallback is not None else None
                if fallback_url is not None and _normal_url(fallback_url) not in known:
                    # The fallback model is still used, on the role's own server.
                    ignored.append(f"roles.{role}.fallback.base_url")
                    entry = {**entry, "fallback": {k: v for k, v in entry["fallback"].items() if k != "base_url"}}
                kept[key][role] = entry
        elif is_widening_key(key) and not narrows(key, getattr(given, key), getattr(own, key)):
            ignored.append(key)
        else:
            kept[key] = value
    return kept, ignored


# -- the user's word ------------------------------------------------------------------------------------------


def own_folder(workspace: Path, environ: Mapping[str, str] | None = None) -> bool:
    """The workspace's .slmcode is the user's own folder (slmcode run in the home folder)."""
    return os.path.realpath(state_dir(workspace)) == os.path.realpath(user_state_dir(environ))


def is_trusted(workspace: Path, environ: Mapping[str, str] | None = None, files: WorkspaceFiles | None = None) -> bool:
    """The user trusted this folder with its widening settings as they are now (as `files` read them)."""
    if own_folder(workspace, environ):
        return True
    found = trustbook.entry(workspace, environ)
    return found is not None and found.digest == workspace_digest(files or read_workspace(workspace))


def untrusted_line(workspace: Path | str, ignored: Sequence[str]) -> str:
    """The one line an untrusted workspace gets: what was ignored and how to trust it."""
    folder = trustbook.folder_key(workspace)
    return (
        f"{folder} is not trusted: ignored its .slmcode/ {', '.join(ignored)} (your own settings apply); to "
        f"use them, check them and run `slmcode trust {folder}`"
    )


def shown_trusted(files: WorkspaceFiles) -> list[str]:
    """What trusting the workspace lets in, one line each (keys masked, URL passwords masked)."""
    lines = [
        f"{key}: {json.dumps(value, default=str)}" for key, value in redacted(widening_settings(_config(files))).items()
    ]
    lines += [f"{path}: cannot be parsed (the loader refuses it)" for path in unparsed(files)]
    for block in widening_blocks(files):
        lines.append(f"{block.ref} ({block.path}): {_block_summary(block.doc)}")
    return lines


def _block_summary(doc: dict[str, Any]) -> str:
    kind = doc.get("kind")
    if kind == "quality":
        parts = [
            f"{f}: {'; '.join(map(str, _listed(doc.get(f))))}"
            for f in ("install", "format", "lint", "test", "build")
            if _listed(doc.get(f))
        ]
    elif kind == "pipeline":
        hooks = doc["hooks"] if isinstance(doc.get("hooks"), dict) else {}
        parts = [
            f"hook {event}: {'; '.join(map(str, _listed(hooks.get(event))))}"
            for event in ("on_task_done", "on_verdict", "on_run_end")
            if _listed(hooks.get(event))
        ]
        parts += [
            f"slot {s.get('name')} (agent {s.get('agent')})" for s in _listed(doc.get("slots")) if isinstance(s, dict)
        ]
    elif kind == "agent":
        parts = [f"MCP tools {', '.join(t for t in _listed(doc.get('tools')) if str(t).startswith(MCP_TOOL_PREFIX))}"]
    else:
        parts = []
    return ", ".join(parts) or "no commands"


def _listed(value: Any) -> list[Any]:
    return [value] if isinstance(value, str) else list(value) if isinstance(value, list) else []


def trust_workspace(
    workspace: Path, environ: Mapping[str, str] | None = None, files: WorkspaceFiles | None = None
) -> trustbook.Entry:
    """Record the user's trust in `workspace` as its widening settings are now: what it shows is what it digests."""
    files = files or read_workspace(workspace)
    return trustbook.record(workspace, workspace_digest(files), shown_trusted(files), environ)
