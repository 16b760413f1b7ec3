"""The malformed tool calls small models really produce: each repaired, or answered with an actionable error."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage

from slmcode.tools.context import ToolContext
from slmcode.tools.repair import repair_tool_calls
from slmcode.tools.textcalls import find_text_calls
from slmcode.tools.toolset import make_tools, run_tool_call

READ = {"path": "src/calc.py"}


def native(name: str, args: dict[str, Any]) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": "c1"}])


def broken(name: str, raw: str) -> AIMessage:
    return AIMessage(content="", invalid_tool_calls=[{"name": name, "args": raw, "id": "c1", "error": None}])


def text(content: str) -> AIMessage:
    return AIMessage(content=content)


REPAIRED: list[tuple[str, AIMessage, str, dict[str, Any]]] = [
    ("fenced args", broken("ws_read", '```json\n{"path": "src/calc.py"}\n```'), "ws_read", READ),
    ("single quotes", broken("ws_read", "{'path': 'src/calc.py'}"), "ws_read", READ),
    ("trailing comma", broken("ws_read", '{"path": "src/calc.py", "limit": 2,}'), "ws_read", {**READ, "limit": 2}),
    ("python literal", broken("ws_read", "{'path': 'src/calc.py', 'offset': None}"), "ws_read", READ),
    ("unquoted keys", broken("ws_read", '{path: "src/calc.py"}'), "ws_read", READ),
    ("json in a json string", broken("ws_read", '"{\\"path\\": \\"src/calc.py\\"}"'), "ws_read", READ),
    ("file", native("ws_read", {"file": "src/calc.py"}), "ws_read", READ),
    ("filepath", native("ws_read", {"filepath": "src/calc.py"}), "ws_read", READ),
    ("file_path", native("ws_read", {"file_path": "src/calc.py"}), "ws_read", READ),
    (
        "filename + camel limit",
        native("ws_read", {"filename": "src/calc.py", "num_lines": 3}),
        "ws_read",
        {**READ, "limit": 3},
    ),
    ("int as string", native("ws_read", {"path": "src/calc.py", "offset": "2"}), "ws_read", {**READ, "offset": 2}),
    ("int as float", native("ws_read", {"path": "src/calc.py", "limit": 4.0}), "ws_read", {**READ, "limit": 4}),
    ("string as int", native("ws_search", {"pattern": 42}), "ws_search", {"pattern": "42"}),
    (
        "command as argv list",
        native("ws_shell", {"command": ["ls", "-la", "src"]}),
        "ws_shell",
        {"command": "ls -la src"},
    ),
    (
        "content as list of lines",
        native("ws_write", {"path": "a.py", "content": ["x = 1", "y = 2"]}),
        "ws_write",
        {"path": "a.py", "content": "x = 1\ny = 2"},
    ),
    ("wrapped in arguments", native("ws_read", {"arguments": {"path": "src/calc.py"}}), "ws_read", READ),
    ("wrapped as a string", native("ws_read", {"parameters": '{"path": "src/calc.py"}'}), "ws_read", READ),
    ("null optional", native("ws_list", {"path": None, "glob": "*.py"}), "ws_list", {"glob": "*.py"}),
    (
        "edit synonyms",
        native("ws_edit", {"file_path": "a.py", "old_string": "x", "new_string": "y"}),
        "ws_edit",
        {"path": "a.py", "old_str": "x", "new_str": "y"},
    ),
    ("one stray key for one hole", native("ws_shell", {"shell_cmd": "ls"}), "ws_shell", {"command": "ls"}),
    ("functions. prefix", native("functions.ws_read", READ), "ws_read", READ),
    ("wrong case", native("WS_Read", READ), "ws_read", READ),
    ("other agent's name", native("read_file", {"file_path": "src/calc.py"}), "ws_read", READ),
    (
        "str_replace",
        native("str_replace", {"path": "a.py", "old": "x", "new": "y"}),
        "ws_edit",
        {"path": "a.py", "old_str": "x", "new_str": "y"},
    ),
    ("bash", native("bash", {"cmd": "ls"}), "ws_shell", {"command": "ls"}),
    ("missing ws_ prefix", native("search", {"query": "add"}), "ws_search", {"pattern": "add"}),
    (
        "tool_call tags",
        text('Reading.\n<tool_call>\n{"name": "ws_read", "arguments": {"path": "src/calc.py"}}\n</tool_call>'),
        "ws_read",
        READ,
    ),
    (
        "unclosed tool_call tag",
        text('<tool_call>{"name": "ws_read", "arguments": {"path": "src/calc.py"}}'),
        "ws_read",
        READ,
    ),
    (
        "```json name/arguments",
        text('```json\n{"name": "ws_read", "arguments": {"path": "src/calc.py"}}\n```'),
        "ws_read",
        READ,
    ),
    (
        "[TOOL_CALLS] list",
        text('[TOOL_CALLS] [{"name": "ws_read", "arguments": {"path": "src/calc.py"}}]'),
        "ws_read",
        READ,
    ),
    ("[TOOL_CALLS] name[ARGS]", text('[TOOL_CALLS]ws_read[ARGS]{"path": "src/calc.py"}'), "ws_read", READ),
    ("<function=...>", text('<function=ws_read>{"path": "src/calc.py"}</function>'), "ws_read", READ),
    (
        "qwen3 xml parameters",
        text("<tool_call>\n<function=ws_read>\n<parameter=path>\nsrc/calc.py\n</parameter>\n</function>\n</tool_call>"),
        "ws_read",
        READ,
    ),
    (
        "python_tag",
        text('<|python_tag|>{"name": "ws_read", "parameters": {"path": "src/calc.py"}}<|eom_id|>'),
        "ws_read",
        READ,
    ),
    ("tool_code python call", text('```tool_code\nws_read(path="src/calc.py")\n```'), "ws_read", READ),
    ("ReAct", text('Thought: look first\nAction: ws_read\nAction Input: {"path": "src/calc.py"}'), "ws_read", READ),
    (
        "bare object, alias names",
        text('{"name": "read_file", "arguments": {"filepath": "src/calc.py"}}'),
        "ws_read",
        READ,
    ),
    (
        "openai wrapper in text",
        text('{"type": "function", "function": {"name": "ws_read", "arguments": "{\\"path\\": \\"src/calc.py\\"}"}}'),
        "ws_read",
        READ,
    ),
]

# Calls that cannot be repaired without guessing: the model gets an error naming the fix.
ANSWERED: list[tuple[str, AIMessage, str]] = [
    ("hallucinated tool", native("delete_repo", {"path": "."}), "is not a valid tool, try one of [ws_read"),
    (
        "hallucinated tool in tags",
        text('<tool_call>{"name": "launch", "arguments": {}}</tool_call>'),
        "launch is not a valid tool",
    ),
    (
        "truncated arguments",
        broken("ws_write", '{"path": "a.py", "content": "def f():\\n    ret'),
        'Expected arguments: {"path": string (required), "content": string (required)}',
    ),
    ("prose for arguments", broken("ws_read", "the calc module please"), "are not a JSON object"),
    (
        "unknown extra key",
        native("ws_read", {"path": "src/calc.py", "mode": "fast"}),
        "mode: Extra inputs are not permitted",
    ),
    ("two stray keys", native("ws_edit", {"path": "a.py", "foo": "x", "bar": "y"}), "old_str: Field required"),
    ("wrong type left", native("ws_read", {"path": "src/calc.py", "limit": "ten"}), "limit: Input should be"),
]


@pytest.fixture
def tools(ctx: ToolContext) -> list[Any]:
    return make_tools(ctx)


def test_the_corpus_is_big_enough() -> None:
    assert len(REPAIRED) + len(ANSWERED) >= 30


@pytest.mark.parametrize(("label", "message", "name", "args"), REPAIRED, ids=[c[0] for c in REPAIRED])
def test_repaired(label: str, message: AIMessage, name: str, args: dict[str, Any], tools: list[Any]) -> None:
    fixed = repair_tool_calls(message, tools)
    assert [(c["name"], c["args"]) for c in fixed.tool_calls] == [(name, args)]
    assert fixed.invalid_tool_calls == [] and fixed.tool_calls[0]["id"]
    assert "<tool_call>" not in str(fixed.content) and "[TOOL_CALLS]" not in str(fixed.content)


@pytest.mark.parametrize(("label", "message", "expected"), ANSWERED, ids=[c[0] for c in ANSWERED])
def test_answered_with_an_actionable_error(label: str, message: AIMessage, expected: str, tools: list[Any]) -> None:
    fixed = repair_tool_calls(message, tools)
    assert len(fixed.tool_calls) == 1, "the call is kept so that it gets an answer"
    answer = run_tool_call(tools, fixed.tool_calls[0])
    assert answer.status == "error" and answer.content.startswith("Error:")
    assert expected in answer.content
    assert answer.tool_call_id == fixed.tool_calls[0]["id"]


def test_repaired_calls_run(tools: list[Any]) -> None:
    fixed = repair_tool_calls(native("read_file", {"file_path": "src/calc.py", "limit": "1"}), tools)
    assert run_tool_call(tools, fixed.tool_calls[0]).content.startswith("1\tdef add(a, b):")


def text_calls(written: str, names: list[str]) -> list[dict[str, Any]]:
    return [call for _, _, calls in find_text_calls(written, names) for call in calls]


def test_plain_text_and_ordinary_code_are_not_calls() -> None:
    names = ["ws_read", "ws_shell"]
    assert text_calls("I changed the file; tests pass.", names) == []
    assert text_calls('```python\nprint("ws_read")\n```', names) == []
    assert text_calls('```json\n{"name": "config", "value": 3}\n```', names) == []


def test_several_text_calls_keep_their_order() -> None:
    written = (
        '<tool_call>{"name": "ws_read", "arguments": {"path": "a"}}</tool_call>\n'
        '<tool_call>{"name": "ws_shell", "arguments": {"command": "ls"}}</tool_call>'
    )
    assert [c["name"] for c in text_calls(written, ["ws_read", "ws_shell"])] == ["ws_read", "ws_shell"]


def test_made_up_ids_are_stable(tools: list[Any]) -> None:
    message = text('```json\n{"name": "ws_read", "arguments": {"path": "src/calc.py"}}\n```')
    first, second = repair_tool_calls(message, tools), repair_tool_calls(message, tools)
    assert first.tool_calls[0]["id"] == second.tool_calls[0]["id"]


def test_an_id_repeated_within_one_answer_is_made_unique(tools: list[Any]) -> None:
    calls = [{"name": "ws_read", "args": {"path": p}, "id": "call_0"} for p in ("a.py", "b.py", "c.py")]
    fixed = repair_tool_calls(AIMessage(content="", tool_calls=calls), tools)
    ids = [c["id"] for c in fixed.tool_calls]
    assert ids[0] == "call_0" and len(set(ids)) == 3
    assert ids == [c["id"] for c in repair_tool_calls(AIMessage(content="", tool_calls=calls), tools).tool_calls]
