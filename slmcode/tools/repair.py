"""Tool-call repair: the calls a small model meant, where what it meant is unambiguous.

Repairs: arguments that are malformed JSON, fenced, Python literals or JSON inside a JSON string; arguments
wrapped in an extra {"arguments": ...}; misspelt argument names (file_path for path); wrong scalar types
("10" for an integer, 10 for a string, a list of lines for a string); null for an optional argument; tool
names with a "functions." prefix, in the wrong case, or under another agent's name; calls written as text.
What cannot be fixed is kept, so run_tool_call answers it with an error that shows the expected schema.

After repair every call sits in message.tool_calls with an id (invalid_tool_calls is emptied), so the graph
answers exactly the calls in that list and no call goes without its result.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage
from langchain_core.tools import BaseTool

from slmcode.tools.calls import UNPARSED_KEY, as_arguments, call_id, loads_lenient
from slmcode.tools.names import resolve_arg_name, resolve_tool_name
from slmcode.tools.textcalls import ARG_KEYS, find_text_calls

INTEGER = re.compile(r"^\s*[+-]?\d+\s*$")
# String arguments that are a command line: a list given for one is argv, joined with shell quoting.
ARGV_KEYS = frozenset({"command"})


def _properties(tool: BaseTool) -> tuple[dict[str, Any], set[str]]:
    schema = tool.get_input_schema().model_json_schema()  # type: ignore[union-attr]
    return schema.get("properties", {}), set(schema.get("required", []))


def _unwrap(args: dict[str, Any], properties: dict[str, Any]) -> dict[str, Any]:
    """{"arguments": {...}} (or "args", "parameters", ...) around the real arguments."""
    if len(args) == 1:
        key, value = next(iter(args.items()))
        if key in ARG_KEYS and key not in properties:
            inner = loads_lenient(value) if isinstance(value, str) else value
            if isinstance(inner, dict):
                return dict(inner)
    return args


def _rename(args: dict[str, Any], properties: dict[str, Any], required: set[str]) -> dict[str, Any]:
    fixed = {k: v for k, v in args.items() if k in properties}
    unknown = [k for k in args if k not in properties]
    leftover = []
    for key in unknown:
        target = resolve_arg_name(key, properties, set(fixed))
        if target is None:
            leftover.append(key)
        else:
            fixed[target] = args[key]
    missing = [k for k in required if k not in fixed]
    if len(leftover) == 1 and len(missing) == 1:  # one stray key, one hole: nothing else it can mean
        fixed[missing[0]] = args[leftover.pop()]
    fixed.update({k: args[k] for k in leftover})  # kept, so the error names them
    return fixed


def _coerce(key: str, value: Any, spec: dict[str, Any]) -> Any:
    kind = spec.get("type")
    if kind == "integer":
        if isinstance(value, str) and INTEGER.match(value):
            return int(value)
        if isinstance(value, float) and value.is_integer():
            return int(value)
    if kind == "string":
        if isinstance(value, bool):
            return str(value).lower()
        if isinstance(value, int | float):
            return str(value)
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return shlex.join(value) if key in ARGV_KEYS else "\n".join(value)
    return value


def repair_args(args: dict[str, Any], tool: BaseTool) -> dict[str, Any]:
    """Arguments fitted to the tool's schema where the fit is unambiguous; the rest left as given."""
    if UNPARSED_KEY in args:
        return args
    properties, required = _properties(tool)
    fixed = _rename(_unwrap(args, properties), properties, required)
    out = {}
    for key, value in fixed.items():
        if value is None and key in properties and key not in required:
            continue  # null for an optional argument means "the default"
        out[key] = _coerce(key, value, properties.get(key, {}))
    return out


def repair_call(call: dict[str, Any], tools: Sequence[BaseTool], index: int = 0, salt: str = "") -> dict[str, Any]:
    """One call with its name and arguments repaired where possible, always with an id."""
    by_name = {tool.name: tool for tool in tools}
    raw_name = str(call.get("name") or "")
    name = resolve_tool_name(raw_name, by_name) or raw_name
    args = as_arguments(call.get("args"))
    if name in by_name:
        args = repair_args(args, by_name[name])
    return {"name": name, "args": args, "id": call.get("id") or call_id(name, args, index, salt), "type": "tool_call"}


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    parts = [p if isinstance(p, str) else p.get("text", "") for p in content or [] if isinstance(p, str | dict)]
    return "".join(parts)


def repair_tool_calls(message: AIMessage, tools: Sequence[BaseTool]) -> AIMessage:
    """The message with every call repaired; text-written calls become real calls (and leave the text)."""
    raw_calls: list[dict[str, Any]] = [dict(c) for c in message.tool_calls]
    raw_calls += [{"name": c.get("name"), "args": c.get("args"), "id": c.get("id")} for c in message.invalid_tool_calls]
    content = message.content
    if not raw_calls:
        text = _text_of(message.content)
        spans = find_text_calls(text, [tool.name for tool in tools])
        for _, _, calls in spans:
            raw_calls += calls
        if spans:
            kept, at = [], 0
            for start, end, _ in spans:
                kept.append(text[at:start])
                at = end
            content = ("".join(kept) + text[at:]).strip()
    if not raw_calls:
        return message
    salt = message.id or ""  # the server's reply id keeps made-up call ids distinct across turns
    repaired = [repair_call(call, tools, index, salt) for index, call in enumerate(raw_calls)]
    seen: set[str] = set()
    for index, call in enumerate(repaired):
        # A server that repeats an id within one answer would pair two results with one call and make the
        # tool-call journal answer the second call with the first's result.
        if call["id"] in seen:
            call["id"] = call_id(call["name"], call["args"], index, f"{salt}|{call['id']}")
        seen.add(call["id"])
    return message.model_copy(update={"tool_calls": repaired, "invalid_tool_calls": [], "content": content})
