"""The one registry of the workspace tools: each tool's name, its kind, what it may touch, which roles get it,
whether its `path` names one file, and when it is dropped to leave the pack room.

Everything that asks "is this call a write?", "which tools does the explorer get?" or "which calls name a file?"
asks here: the toolset (tools/toolset.py), the compactor (compact/toolfit, compact/messages), the prompts' tool
roles, the solo loop, the transcript and loop guard, the gates' record, the web board and the simulated model.
A tool's schema stays in schemas.py (plain data) and toolset.py, its description in prompts.py; the spec
names the tool they describe. providers/tool_grammar.py sits below tools/ in the module map and keeps its three
names itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# read: looks at the workspace; write: changes one workspace file; shell: runs programs in the workspace;
# meta: touches no workspace file (the skill cards); external: an MCP server's tool, which may do anything.
Kind = Literal["read", "write", "shell", "meta", "external"]

READ, LIST, SEARCH, WRITE, EDIT, SHELL, SKILL = (
    "ws_read",
    "ws_list",
    "ws_search",
    "ws_write",
    "ws_edit",
    "ws_shell",
    "ws_skill",
)
MCP_PREFIX = "mcp__"  # an MCP server's tools are offered as mcp__SERVER__TOOL (mcp/offer.py)

TOOL_ROLES = frozenset({"worker", "corrector", "tester", "explorer"})  # the roles whose requests carry tools
LOOP_ROLES = frozenset({"explorer", "worker"})  # the roles the worker node's tool loop runs (solo's --agent)
READ_ONLY_ROLES = frozenset({"explorer"})  # reads, never writes or runs anything
CHANGING_ROLES = TOOL_ROLES - READ_ONLY_ROLES


@dataclass(frozen=True)
class ToolSpec:
    name: str
    kind: Kind
    touches: str  # what a call may touch, in a user's words
    roles: frozenset[str]  # the roles whose requests may carry it
    one_file: bool = False  # its `path` names one file: the transcript's read and changed files come from these
    drop_rank: int | None = None  # dropped in this order while a small window leaves the pack short; None: kept


SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(READ, "read", "one workspace file, read", TOOL_ROLES, one_file=True),
    # The corrector fixes files the task already touched, named by its review notes and failed checks: it has
    # nothing to discover, and a tool it does not need costs every one of its requests the schema's tokens.
    ToolSpec(LIST, "read", "the names of the workspace's files and folders", TOOL_ROLES - {"corrector"}, drop_rank=1),
    ToolSpec(SEARCH, "read", "the text of the workspace's files, read", TOOL_ROLES, drop_rank=2),
    ToolSpec(WRITE, "write", "one workspace file, created or rewritten", CHANGING_ROLES, one_file=True),
    ToolSpec(EDIT, "write", "one workspace file, changed in place", CHANGING_ROLES, one_file=True),
    ToolSpec(
        SHELL, "shell", "the workspace, through whitelisted programs inside the sandbox", CHANGING_ROLES, drop_rank=4
    ),
    ToolSpec(SKILL, "meta", "the run's skill cards, no workspace file", TOOL_ROLES, drop_rank=3),
)
BY_NAME = {spec.name: spec for spec in SPECS}


def spec_of(name: str) -> ToolSpec:
    """The spec of a tool by name; a name not registered here (an MCP server's tool) is `external`, offered to
    the roles that may change the workspace."""
    found = BY_NAME.get(name)
    if found is not None:
        return found
    return ToolSpec(name, "external", "whatever its MCP server does", CHANGING_ROLES)


def names_of(*kinds: Kind) -> frozenset[str]:
    return frozenset(spec.name for spec in SPECS if spec.kind in kinds)


def gets(role: str, name: str) -> bool:
    """Whether `role`'s requests may carry the tool `name`."""
    return role in spec_of(name).roles


WRITE_TOOLS = names_of("write")  # ws_write, ws_edit
READ_ONLY_TOOLS = frozenset(spec.name for spec in SPECS if spec.roles >= READ_ONLY_ROLES)
FILE_TOOLS = frozenset(spec.name for spec in SPECS if spec.one_file)  # ws_read, ws_write, ws_edit
FILE_READ_TOOLS = FILE_TOOLS - WRITE_TOOLS  # ws_read
DROP_ORDER: tuple[str, ...] = tuple(
    spec.name
    for spec in sorted((spec for spec in SPECS if spec.drop_rank is not None), key=lambda spec: spec.drop_rank or 0)
)
