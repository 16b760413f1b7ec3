"""Tool calls written as text, for servers without native tool calling (or models that ignore it).

Recognised forms, each seen from real small models:
  <tool_call>{"name": ..., "arguments": {...}}</tool_call>            Qwen, Hermes (closing tag optional)
  <function=NAME>{...}</function>, <function=NAME><parameter=K>V</parameter></function>   Llama 3.1, Qwen3-Coder
  [TOOL_CALLS] [{"name": ..., "arguments": {...}}], [TOOL_CALLS]NAME[ARGS]{...}            Mistral
  <|python_tag|>{"name": ..., "parameters": {...}}                   Llama 3.x
  ```json {"name": ..., "arguments": {...}} ``` (an object or a list)  most instruct models
  ```tool_code / ```python  NAME(key="value")                        Gemma and code-trained models
  Action: NAME / Action Input: {...}                                  ReAct-prompted models
  a bare {"name": ..., "arguments": {...}} object in the text
Explicit markers (tags, [TOOL_CALLS]) are trusted even with an unknown name, so the model hears that the tool
does not exist; unmarked forms (fences, bare JSON, Python calls, ReAct) count only for a name that resolves
to an offered tool (see names.py).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable, Iterable
from typing import Any

from slmcode.tools.calls import as_arguments, loads_lenient
from slmcode.tools.names import resolve_tool_name

NAME_KEYS = ("name", "tool", "tool_name", "function", "action")
ARG_KEYS = ("arguments", "args", "parameters", "params", "input", "tool_input", "action_input", "kwargs")

TOOL_CALL_TAG = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.DOTALL)
FUNCTION_TAG = re.compile(r"<function=([\w.\-]+)>\s*(.*?)\s*(?:</function>|$)", re.DOTALL)
PARAMETER_TAG = re.compile(r"<parameter=([\w\-]+)>\n?(.*?)\n?</parameter>", re.DOTALL)
MISTRAL = re.compile(r"\[TOOL_CALLS\]\s*(.*?)(?=\[TOOL_CALLS\]|$)", re.DOTALL)
MISTRAL_ARGS = re.compile(r"^([\w.\-]+)\s*\[ARGS\]\s*(.*)$", re.DOTALL)
PYTHON_TAG = re.compile(r"<\|python_tag\|>\s*(.*?)\s*(?:<\|eom_id\|>|<\|eot_id\|>|$)", re.DOTALL)
FENCED = re.compile(r"```[ \t]*([\w-]*)[ \t]*\n(.*?)\n?[ \t]*```", re.DOTALL)
REACT = re.compile(
    r"Action:\s*`?([\w.\-]+)`?\s*\n+\s*Action Input:\s*(.*?)(?=\n\s*(?:Observation|Thought|Action):|$)", re.DOTALL
)

Span = tuple[int, int, list[dict[str, Any]]]


def _call(name: Any, args: Any) -> dict[str, Any] | None:
    if not isinstance(name, str) or not name.strip():
        return None
    return {"name": name.strip(), "args": as_arguments(args), "type": "tool_call"}


def calls_from_value(value: Any) -> list[dict[str, Any]]:
    """Calls in a parsed JSON value: one object, a list of them, or OpenAI's {"function": {...}} wrapper."""
    items = value if isinstance(value, list) else [value]
    calls = []
    for item in items:
        if not isinstance(item, dict):
            return []
        if isinstance(item.get("function"), dict):
            item = item["function"]
        name = next((item[k] for k in NAME_KEYS if isinstance(item.get(k), str)), None)
        args: Any = next((item[k] for k in ARG_KEYS if k in item), {})
        call = _call(name, args)
        if call is None:
            return []
        calls.append(call)
    return calls


def _python_calls(code: str, known: Callable[[str], bool]) -> list[dict[str, Any]]:
    """NAME(key=value, ...) lines whose NAME is a known tool; arguments must be literals."""
    try:
        tree = ast.parse(code.strip())
    except SyntaxError:
        return []
    calls = []
    for node in tree.body:
        if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)):
            return []
        func = node.value.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if not known(name) or node.value.args:
            return []
        try:
            args = {kw.arg: ast.literal_eval(kw.value) for kw in node.value.keywords if kw.arg}
        except ValueError:
            return []
        calls.append({"name": name, "args": args, "type": "tool_call"})
    return calls


def _tagged(text: str) -> Iterable[Span]:
    for match in TOOL_CALL_TAG.finditer(text):
        body = match.group(1)
        inner = FUNCTION_TAG.search(body)
        if inner:
            calls = _function_tag_calls(inner)
        else:
            head = re.match(r"^([\w.\-]+)\s*\n\s*(\{.*)$", body, re.DOTALL)  # "NAME\n{args}"
            calls = [c for c in [_call(head.group(1), head.group(2))] if c] if head else _value_calls(body)
        yield match.start(), match.end(), calls or [{"name": "", "args": as_arguments(body), "type": "tool_call"}]
    for match in FUNCTION_TAG.finditer(text):
        yield match.start(), match.end(), _function_tag_calls(match)
    for match in MISTRAL.finditer(text):
        body = match.group(1).strip()
        named = MISTRAL_ARGS.match(body)
        calls = [c for c in [_call(named.group(1), named.group(2))] if c] if named else _value_calls(body)
        yield match.start(), match.end(), calls
    for match in PYTHON_TAG.finditer(text):
        yield match.start(), match.end(), _value_calls(match.group(1))


def _function_tag_calls(match: re.Match[str]) -> list[dict[str, Any]]:
    name, body = match.group(1), match.group(2)
    params = {k: v for k, v in PARAMETER_TAG.findall(body)}
    call = _call(name, params if params else body)
    return [call] if call else []


def _value_calls(body: str) -> list[dict[str, Any]]:
    value = loads_lenient(body)
    return calls_from_value(value) if value is not None else []


def _unmarked(text: str, known: Callable[[str], bool]) -> Iterable[Span]:
    for match in FENCED.finditer(text):
        language, body = match.group(1).lower(), match.group(2)
        calls = _value_calls(body) if language in {"", "json", "tool_call", "tool_calls", "jsonc"} else []
        if not calls and language in {"", "python", "py", "tool_code"}:
            calls = _python_calls(body, known)
        yield match.start(), match.end(), calls
    for match in REACT.finditer(text):
        call = _call(match.group(1), match.group(2).strip())
        yield match.start(), match.end(), [call] if call else []
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{\s*\"(?:name|function|tool)\"", text):
        try:
            value, end = decoder.raw_decode(text, match.start())
        except json.JSONDecodeError:
            continue
        yield match.start(), end, calls_from_value(value)


def find_text_calls(text: str, tool_names: Iterable[str]) -> list[Span]:
    """Non-overlapping (start, end, calls) spans, in text order."""
    names = list(tool_names)

    def known(name: str) -> bool:
        return resolve_tool_name(name, names) is not None

    spans: list[Span] = []
    for start, end, calls in _tagged(text):
        if calls and not any(s < end and start < e for s, e, _ in spans):
            spans.append((start, end, calls))
    for start, end, calls in _unmarked(text, known):
        calls = [c for c in calls if known(c["name"])]
        if calls and not any(s < end and start < e for s, e, _ in spans):
            spans.append((start, end, calls))
    return sorted(spans, key=lambda span: span[0])
