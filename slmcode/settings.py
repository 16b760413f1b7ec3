"""Settings: every knob slmcode reads, with its type, default and bounds, as one pydantic model (and the
models of its structured values: a role's model, a profile override, an MCP server). Where the values come
from, and in which order they win, is slmcode.config's.
"""

from __future__ import annotations

import ipaddress
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

# The choices a few settings take, named so the settings slices (packages' Protocols) can say the same type.
Dialect = Literal["openai", "llama-cpp-python"]
Permission = Literal["auto", "dry-run", "review"]
ShellPermission = Literal["allow", "ask", "deny"]
OnOff = Literal["on", "off"]
AutoOnOff = Literal["auto", "on", "off"]
Lever = Literal[
    "packs", "repo_map", "tool_repair", "compaction", "verify", "loop_guard", "edit_format", "stall", "focus"
]


def _http_url(url: str | None) -> str | None:
    """A model server's URL must be http(s)://host...: 'localhost:11434/v1' would start a run that fails later."""
    parts = urlsplit(url.strip()) if url else None
    if parts is not None and (parts.scheme not in ("http", "https") or not parts.hostname):
        raise ValueError("an http:// or https:// URL of the model server, e.g. http://127.0.0.1:11434/v1")
    return url


class FallbackModel(BaseModel):
    """A stronger model a role escalates to after a task failed on its own (nodes/fallback.py); its server
    defaults to the role's."""

    model_config = ConfigDict(extra="forbid")
    model: str
    base_url: str | None = None

    _base_url = field_validator("base_url")(_http_url)


class RoleModel(BaseModel):
    """Which model serves one role; unset fields fall back to the top-level settings."""

    model_config = ConfigDict(extra="forbid")
    model: str | None = None
    base_url: str | None = None
    temperature: float | None = None
    fallback: FallbackModel | None = None
    edit_format: Literal["replace", "whole", "auto"] | None = None  # this role's, over the run's edit_format

    _base_url = field_validator("base_url")(_http_url)


class ProfileOverride(BaseModel):
    """A user's entry in model_profiles: extends or overrides the built-in profile table."""

    model_config = ConfigDict(extra="forbid")
    context_limit: int | None = Field(default=None, gt=0)
    max_turns: int | None = Field(default=None, gt=0)
    token_factor: float | None = Field(default=None, ge=1.0, le=3.0)
    edit_format: Literal["replace", "whole", "auto"] | None = None


def _default_role_budget() -> dict[str, float]:
    return {
        "worker": 1.0,
        "corrector": 1.0,
        "tester": 1.0,
        "planner": 0.7,
        "splitter": 0.7,
        "clarify": 0.7,
        "scope_judge": 0.7,
        "coordinator": 0.7,
        "reviewer": 0.7,
        "escalate": 0.7,
        "qa": 0.7,
        "context": 0.5,
        "learn": 0.5,
        "memory": 0.5,
        "compactor": 0.5,
    }


class McpServer(BaseModel):
    """One MCP server (slmcode.mcp): a local program spoken to over stdio (`command`, `args`, `env`), started
    inside the sandbox, or a streamable-HTTP `url` on this machine. A URL off this machine is refused: the
    harness sends nothing off the machine the user did not name as the model server."""

    model_config = ConfigDict(extra="forbid")
    command: str | None = None
    args: list[str] = Field(default_factory=list)
    env: dict[str, str] = Field(default_factory=dict)
    url: str | None = None

    @field_validator("url")
    @classmethod
    def _loopback(cls, url: str | None) -> str | None:
        if url is not None and not is_loopback_url(url):
            raise ValueError(
                "an http(s) URL on this machine (127.0.0.1, ::1 or localhost); MCP servers elsewhere are refused"
            )
        return url

    @model_validator(mode="after")
    def _one_transport(self) -> McpServer:
        if (self.command is None) == (self.url is None):
            raise ValueError("either `command` (a local server over stdio) or `url` (streamable HTTP), not both")
        return self


def is_loopback_url(url: str) -> bool:
    """An http(s) URL whose host is this machine's loopback."""
    parsed = urlsplit(url.strip())
    host = (parsed.hostname or "").lower()
    if parsed.scheme not in ("http", "https") or not host:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class Settings(BaseModel):
    """Every knob slmcode reads. Unknown keys are errors, so a typo never silently does nothing."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    # The model and its server.
    model: str = "embedded"
    base_url: str | None = None
    api_key: str = "sk-no-key"
    model_path: str | None = None
    roles: dict[str, RoleModel] = Field(default_factory=dict)
    temperature: float = 0.2
    request_timeout: float = Field(default=120.0, gt=0)
    request_retries: int = Field(default=2, ge=0)
    structured_output: Literal["auto", "json_schema", "prompt"] = "auto"
    # llama-cpp-python (the embedded server) needs requests rewritten: providers/llama_dialect.py.
    server_dialect: Dialect = "openai"
    _base_url = field_validator("base_url")(_http_url)

    # Context window and budget.
    context_limit: int | None = Field(default=None, gt=0)
    context_window_cap: int = Field(default=32768, gt=0)
    context_reserve_system_tokens: int = Field(default=500, ge=0)
    context_reserve_tool_tokens: int = Field(default=900, ge=0)
    context_reserve_response_tokens: int = Field(default=2048, ge=0)
    context_slack_percent: float = Field(default=10.0, ge=0, lt=100)
    context_min_pack_tokens: int = Field(default=512, gt=0)
    context_role_budget: dict[str, float] = Field(default_factory=_default_role_budget)
    model_profiles: dict[str, ProfileOverride] = Field(default_factory=dict)

    # Pipeline.
    max_parallel: int = Field(default=2, ge=1)
    max_retries: int = Field(default=2, ge=0)
    # Attempts a task gets on a role's fallback model once it failed every attempt on its own (nodes/fallback.py).
    fallback_attempts: int = Field(default=2, ge=1)
    max_tasks: int = Field(default=8, ge=1)
    max_rounds: int = Field(default=2, ge=1)
    think_passes: int = Field(default=1, ge=1)
    clarify_mode: Literal["ask", "auto"] = "auto"
    # plan: pause after the splitter with the task list for the user to approve or edit (nodes/approval.py).
    approve: Literal["plan", "none"] = "none"
    # One specialist alone (`run --agent`): no planning, no team (nodes/solo.py).
    agent: Literal["explorer", "planner", "worker", "reviewer"] | None = None
    # auto: a task with one requirement whose plan names one file gets one worker, no splitter (nodes/team.py).
    team: Literal["auto", "full"] = "full"
    # A plain "add NAME function to FILE.py [with a test]" is planned without the model (nodes/simple_task.py):
    # auto for the embedded model and models under 1B, on for every model, off never.
    simple_plan: Literal["auto", "on", "off"] = "auto"
    escalate_timeout_seconds: float = Field(default=300.0, ge=0)
    # The loop guard (nodes/loop_guard.py): a task that makes the same tool call a fifth time, or this many calls
    # in a row with no new file read and no file changed, stops as a `loop` instead of running to its turn limit.
    loop_guard: OnOff = "on"
    loop_guard_calls: int = Field(default=8, ge=2)
    # Best-of-N (nodes/attempts.py): a worker task whose criteria have verify commands runs as this many attempts,
    # each on its own copy of the workspace with its own seed; the first whose must criteria all pass wins and only
    # its change reaches the workspace. auto: 2 for models under 14B parameters (or of unknown size with at most
    # an 8K window), else 1.
    attempts: Annotated[int, Field(ge=1, le=8)] | Literal["auto"] = 1
    # How the worker changes an existing file (tools/editformat.py): replace = ws_edit's exact old_str; whole =
    # ws_write rewrites the whole file (guarded: no definition the task did not name may go); auto = replace,
    # and after edit_format_misses old_str misses on one file, that file's whole-file rewrite is offered.
    # Unset: the model profile's (auto up to 15B parameters or an 8K window, replace above).
    edit_format: Literal["replace", "whole", "auto"] | None = None
    edit_format_misses: int = Field(default=2, ge=1)

    # Compaction.
    react_compact_at_percent: float = Field(default=80.0, gt=0, le=100)
    react_keep_tool_results: int = Field(default=5, ge=1)
    compact_hysteresis_percent: float = Field(default=5.0, ge=0)
    compact_max_failures: int = Field(default=3, ge=1)
    tool_output_inline_bytes: int = Field(default=6000, gt=0)
    tool_output_capture_bytes: int = Field(default=1_000_000, gt=0)

    # Tools and permissions.
    permission: Permission = "auto"
    # Git-native runs (slmcode.gitrun): branch = each accepted task one commit on slmcode/RUN_ID, the user's
    # branch untouched until `slmcode accept`; in-place = commits on the user's branch; off = no git. Off by
    # default: a run then edits the folder as before. git_stash: stash a dirty tree for the run and restore it.
    git_mode: Literal["off", "branch", "in-place"] = "off"
    git_stash: bool = False
    shell_permission: ShellPermission = "allow"
    shell_timeout_seconds: float = Field(default=120.0, gt=0)
    shell_extra_commands: list[str] = Field(default_factory=list)
    max_read_bytes: int = Field(default=1_000_000, gt=0)
    # The OS sandbox every command runs in (environment/ossandbox.py): network off unless allowed; extra folders a
    # toolchain must read; extra variable names passed through (never one that looks like a credential).
    sandbox_network: bool = False
    sandbox_read_paths: list[str] = Field(default_factory=list)
    sandbox_env: list[str] = Field(default_factory=list)
    # Limits inside the sandbox (environment/limits.py), each per process: tasks in one command line, private memory,
    # the largest file written, CPU seconds (a safety net; shell_timeout_seconds is the deadline); and the size of
    # the scratch folder (HOME/TMPDIR, emptied after a command leaves it larger) and of /tmp's tmpfs.
    sandbox_max_processes: int = Field(default=1024, ge=16)
    sandbox_max_memory_mb: int = Field(default=4096, ge=64)
    sandbox_max_file_mb: int = Field(default=2048, ge=1)
    sandbox_max_cpu_seconds: int = Field(default=1800, ge=1)
    sandbox_max_scratch_mb: int = Field(default=2048, ge=16)
    # MCP servers (slmcode.mcp): name -> McpServer; their tools reach only agents that list them, at most
    # mcp_max_tools per agent (each schema rides along with every request); a call waits mcp_timeout_seconds.
    mcp_servers: dict[Annotated[str, Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=24)], McpServer] = Field(
        default_factory=dict
    )
    mcp_max_tools: int = Field(default=4, ge=0)
    mcp_timeout_seconds: float = Field(default=60.0, gt=0)

    # Context packs.
    include_readme: bool = False
    embedding_enabled: bool = False
    retrieval_min_score: float | None = None
    # Localisation's semantic channel (localize/semantic.py): code embeddings of spans added to the lexical score.
    # auto or on: on where the optional package imports (`pip install slmcode[semantic]`). Off by default: on the
    # development set's reporting half it moved hunk recall by -0.004 / +0.024 / -0.004
    # (docs/bench/devset_localization_semantic.txt).
    retrieval_semantic: AutoOnOff = "off"
    skill_max_expanded: int = Field(default=2, ge=0)
    pinned_skills: list[str] = Field(default_factory=list)
    repomap_tokens: int = Field(default=1000, gt=0)
    repomap_max_file_bytes: int = Field(default=500_000, gt=0)
    identifier_only_roles: list[str] = Field(default_factory=lambda: ["planner", "coordinator"])

    # Measurement only (`slmcode eval --ablate`): levers of the harness switched off, to measure what each adds.
    # packs: no code excerpts in a pack; repo_map: no map sections; tool_repair: answers' tool calls used as
    # sent; compaction: the conversation sent whole; verify: no criterion runs and no corrector retries;
    # loop_guard: no steer on a repeated call and no loop stop (as loop_guard: off); edit_format: ws_edit's exact
    # old_str only, never a whole-file rewrite offered (as edit_format: replace); stall: a correction that changed
    # no file is followed by another all the same (nodes/corrector.py); focus: the worker's turn limit counted from
    # its start, and a "done" that leaves focus files unchanged taken at its word (nodes/focus.py).
    ablate: list[Lever] = Field(default_factory=list)

    # Persistence.
    checkpoint_url: str | None = None
    language_pack: str | None = None


SETTING_KEYS: tuple[str, ...] = tuple(Settings.model_fields)
