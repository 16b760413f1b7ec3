"""The worker's tools as LangChain tools, and the one place a tool call is executed.

Argument schemas are pydantic models whose Field descriptions are what the model reads, given only where an
argument's name does not say it: every request pays for them. run_tool_call never raises: an unknown tool,
arguments that do not fit the schema, or a tool that crashes all come back as a ToolMessage starting with
"Error:" (status "error"), so every call gets its result (tool pairs stay whole).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool, StructuredTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from slmcode.environment.filenames import printable
from slmcode.tools import prompts, registry, workspace
from slmcode.tools.calls import UNPARSED_KEY
from slmcode.tools.context import ToolContext
from slmcode.tools.schemas import builtin_schemas
from slmcode.tools.shell import CappedOutput, run_command
from slmcode.tools.shellchanges import changed_between, changed_note, uncommitted

log = logging.getLogger(__name__)


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ReadArgs(_Args):
    path: str
    offset: int = Field(default=1, description=prompts.ARG_OFFSET)
    limit: int = workspace.DEFAULT_READ_LINES


class ListArgs(_Args):
    path: str = "."
    glob: str = Field(default="", description=prompts.ARG_GLOB)


class SearchArgs(_Args):
    pattern: str = Field(description=prompts.ARG_PATTERN)
    glob: str = Field(default="", description=prompts.ARG_GLOB)
    path: str = "."


class WriteArgs(_Args):
    path: str
    content: str


class RewriteArgs(_Args):
    path: str
    content: str = Field(description=prompts.ARG_CONTENT_WHOLE)


class EditArgs(_Args):
    path: str
    old_str: str = Field(description=prompts.ARG_OLD)
    new_str: str


class ShellArgs(_Args):
    command: str


class SkillArgs(_Args):
    name: str


def _capped(ctx: ToolContext, func: Callable[..., str]) -> Callable[..., str]:
    def run(**kwargs: Any) -> str:
        output = CappedOutput(ctx.settings.tool_output_capture_bytes)
        output.feed(printable(func(ctx, **kwargs)).encode("utf-8"))  # no stray surrogate can fail the request
        return output.text()

    return run


def _shell(ctx: ToolContext) -> Callable[..., str]:
    def ws_shell(command: str) -> str:
        before = uncommitted(ctx.workspace)
        result = run_command(
            ctx.workspace, command, ctx.settings, ctx.allowed_commands, ctx.confirm, ctx.on_process, ctx.env
        )
        if isinstance(result, str):
            return result
        after = uncommitted(ctx.workspace) if before is not None else None
        changed = changed_between(before, after) if before is not None and after is not None else []
        # The line tells the model what its command did, and the transcript keeps it for the task's files.
        return result.render() + (changed_note(changed) if changed else "")

    return ws_shell


def make_tools(ctx: ToolContext) -> list[BaseTool]:
    """The tools for one task: the ones tools/schemas.py offers it, each with its description from there and its
    pydantic arguments, which validate a call (run_tool_call)."""
    runs: dict[str, tuple[type[BaseModel], Callable[..., str]]] = {
        registry.READ: (ReadArgs, _capped(ctx, workspace.ws_read)),
        registry.LIST: (ListArgs, _capped(ctx, workspace.ws_list)),
        registry.SEARCH: (SearchArgs, _capped(ctx, workspace.ws_search)),
        registry.WRITE: (RewriteArgs if ctx.edit.mode == "whole" else WriteArgs, _capped(ctx, workspace.ws_write)),
        registry.EDIT: (EditArgs, _capped(ctx, workspace.ws_edit)),
        registry.SHELL: (ShellArgs, _shell(ctx)),
        registry.SKILL: (SkillArgs, _capped(ctx, workspace.ws_skill)),
    }
    return [
        StructuredTool.from_function(
            func=runs[spec.name][1], name=spec.name, description=spec.description, args_schema=runs[spec.name][0]
        )
        for spec in builtin_schemas(ctx)
    ]


def openai_spec(tool: BaseTool) -> dict[str, Any]:
    """A run's tool (built-in or an MCP server's) as a request's `tools` entry, by LangChain's conversion: what
    the schemas' count needs during a run. Kept per process, for every worker step asks again for the same few
    tools. (Without a run, count tools/schemas.py's plain schemas: they are these, and need no LangChain.)"""
    # An MCP tool's args_schema is a JSON schema dict (unhashable): its sorted JSON stands for it.
    schema = tool.args_schema
    key = (tool.name, tool.description, json.dumps(schema, sort_keys=True) if isinstance(schema, dict) else schema)
    if key not in _SPECS:
        _SPECS[key] = convert_to_openai_tool(tool)
    return _SPECS[key]


_SPECS: dict[tuple[object, ...], dict[str, Any]] = {}


def describe_schema(tool: BaseTool) -> str:
    """The expected arguments in one compact line, e.g. {"path": string (required), "offset": integer = 1}."""
    schema = tool.get_input_schema().model_json_schema()  # type: ignore[union-attr]  # v2 models only
    required = set(schema.get("required", []))
    parts = []
    for key, spec in schema.get("properties", {}).items():
        kind = spec.get("type", "any")
        tail = " (required)" if key in required else f" = {json.dumps(spec.get('default'))}"
        parts.append(f'"{key}": {kind}{tail}')
    return "{" + ", ".join(parts) + "}"


def _problems(error: ValidationError) -> str:
    return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}" for e in error.errors())


def _message(content: str, call: Mapping[str, Any], name: str) -> ToolMessage:
    status = "error" if content.startswith("Error:") else "success"
    content = printable(content)  # a crash message or shell output may carry a non-UTF-8 file name
    return ToolMessage(content=content, tool_call_id=str(call.get("id") or ""), name=name, status=status)


def _pauses_the_graph(exc: BaseException) -> bool:
    """LangGraph's interrupt() (a tool asking the user, e.g. `Run this command?`) raises a GraphBubbleUp that must
    reach the graph. Told by name so this module does not import LangGraph (the CLI's start-up stays light)."""
    return any(c.__name__ == "GraphBubbleUp" and c.__module__ == "langgraph.errors" for c in type(exc).__mro__)


def run_tool_call(tools: Sequence[BaseTool], call: Mapping[str, Any]) -> ToolMessage:
    """Execute one tool call; never raises."""
    name = str(call.get("name") or "")
    by_name = {tool.name: tool for tool in tools}
    tool = by_name.get(name)
    if tool is None:
        return _message(prompts.UNKNOWN_TOOL.format(name=name or "(no name)", tools=", ".join(by_name)), call, name)
    args = call.get("args")
    if not isinstance(args, dict) or UNPARSED_KEY in args:
        raw = args.get(UNPARSED_KEY) if isinstance(args, dict) else args
        shown = json.dumps(raw)[:300]
        content = prompts.UNPARSED_ARGUMENTS.format(name=name, raw=shown, schema=describe_schema(tool))
        return _message(content, call, name)
    try:
        valid = tool.get_input_schema().model_validate(args)  # type: ignore[union-attr]  # v2 models only
    except ValidationError as exc:
        content = prompts.BAD_ARGUMENTS.format(name=name, problems=_problems(exc), schema=describe_schema(tool))
        return _message(content, call, name)
    try:
        content = str(tool.invoke(valid.model_dump()))
    # A crashed tool must still answer its call (docs/architecture.md#tool-pairs); logged, not hidden.
    except Exception as exc:
        if _pauses_the_graph(exc):
            raise  # shell_permission `ask`: the question goes to the user, not to the model as a crash
        log.exception("tool %s crashed", name)
        content = prompts.TOOL_CRASHED.format(name=name, error=f"{type(exc).__name__}: {exc}")
    return _message(content, call, name)
