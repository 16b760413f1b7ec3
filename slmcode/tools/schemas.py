"""The built-in tools' schemas as plain data: each tool's name, description and JSON parameters, in the OpenAI
function form a request carries, and which of them a task is offered.

Counting what the schemas cost (compact/toolfit, nodes/window_floor) needs only these dicts. Building the
LangChain tools to convert them imported langchain_core, 0.55 CPU-s of `slmcode pack`'s ~2, for a
command that calls no model. toolset.make_tools builds its tools from this selection, and a test checks that
LangChain's conversion of every tool gives exactly these dicts (tests/tools/test_schemas.py), so the counted
tokens are the ones a request really carries.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from slmcode.tools import prompts, registry
from slmcode.tools.context import ToolContext
from slmcode.tools.workspace import DEFAULT_READ_LINES


@dataclass(frozen=True)
class ToolSchema:
    name: str
    description: str
    parameters: dict[str, Any]  # a JSON schema object, as LangChain renders the tool's pydantic arguments

    def as_openai(self) -> dict[str, Any]:
        """The tool as a request's `tools` entry (what langchain_core's convert_to_openai_tool gives)."""
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }


def _string(description: str = "", default: str | None = None) -> dict[str, Any]:
    found: dict[str, Any] = {"type": "string"}
    if description:
        found["description"] = description
    if default is not None:
        found["default"] = default
    return found


def _integer(default: int, description: str = "") -> dict[str, Any]:
    return {"type": "integer", "default": default, **({"description": description} if description else {})}


def _object(properties: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Arguments without a default are required, in their order (pydantic's rule, which the schema mirrors)."""
    required = [name for name, spec in properties.items() if "default" not in spec]
    return {"properties": properties, "type": "object", **({"required": required} if required else {})}


READ = ToolSchema(
    registry.READ,
    prompts.WS_READ,
    _object({"path": _string(), "offset": _integer(1, prompts.ARG_OFFSET), "limit": _integer(DEFAULT_READ_LINES)}),
)
LIST = ToolSchema(
    registry.LIST, prompts.WS_LIST, _object({"path": _string(default="."), "glob": _string(prompts.ARG_GLOB, "")})
)
SEARCH = ToolSchema(
    registry.SEARCH,
    prompts.WS_SEARCH,
    _object(
        {
            "pattern": _string(prompts.ARG_PATTERN),
            "glob": _string(prompts.ARG_GLOB, ""),
            "path": _string(default="."),
        }
    ),
)
WRITE = ToolSchema(registry.WRITE, prompts.WS_WRITE, _object({"path": _string(), "content": _string()}))
# The `whole` edit format: ws_write rewrites a read file too, and says the content is all of it.
WRITE_WHOLE = ToolSchema(
    registry.WRITE,
    prompts.WS_WRITE_WHOLE,
    _object({"path": _string(), "content": _string(prompts.ARG_CONTENT_WHOLE)}),
)
EDIT = ToolSchema(
    registry.EDIT,
    prompts.WS_EDIT,
    _object({"path": _string(), "old_str": _string(prompts.ARG_OLD), "new_str": _string()}),
)
SHELL = ToolSchema(registry.SHELL, prompts.WS_SHELL, _object({"command": _string()}))
SKILL = ToolSchema(registry.SKILL, prompts.WS_SKILL, _object({"name": _string()}))


def builtin_schemas(ctx: ToolContext) -> list[ToolSchema]:
    """The tools one task is offered, in order. ws_shell is left out when the shell is denied and ws_skill when
    there are no skills, ws_edit in the `whole` edit format: a tool the model cannot use only costs it tokens."""
    offered = [READ, LIST, SEARCH, WRITE_WHOLE] if ctx.edit.mode == "whole" else [READ, LIST, SEARCH, WRITE, EDIT]
    if ctx.settings.shell_permission != "deny":
        offered.append(SHELL)
    if ctx.skills is not None:
        offered.append(SKILL)
    return offered
