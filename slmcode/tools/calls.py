"""Reading the argument text a small model wrote: strict JSON, then Python literals, then json-repair.

Repair stops where intent stops being clear: arguments cut off mid-string or mid-object (the reply ran out
of tokens) are never completed, because a completed-looking ws_write would save half a file.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
from typing import Any

import json_repair

# Arguments that could not be read at all travel under this key, so the call keeps its place in the turn and
# run_tool_call answers it with the expected schema.
UNPARSED_KEY = "__unparsed_arguments__"
FENCE = re.compile(r"^\s*```[\w-]*\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)


def strip_fence(text: str) -> str:
    match = FENCE.match(text)
    return match.group(1) if match else text


def is_truncated(text: str) -> bool:
    """True when the text ends inside a string or with brackets still open."""
    depth, quote, escaped = 0, "", False
    for ch in text:
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
    return bool(quote) or depth > 0


def loads_lenient(text: str) -> Any | None:
    """The value `text` most plausibly meant, or None when it is not a complete JSON-like value."""
    text = strip_fence(text.strip()).strip()
    if not text:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    try:
        return ast.literal_eval(text)  # Python dict literals: single quotes, True, None
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        pass
    if is_truncated(text) or text[0] not in "{[":
        return None
    value = json_repair.loads(text)
    return value if isinstance(value, dict | list) and value else None


def as_arguments(raw: Any) -> dict[str, Any]:
    """Arguments as a dict: JSON text (even JSON inside a JSON string) is parsed; the unreadable is kept raw."""
    value = raw
    for _ in range(3):  # "{\"path\": ...}" encoded once or twice more
        if not isinstance(value, str):
            break
        parsed = loads_lenient(value)
        if parsed is None:
            break
        value = parsed
    if value is None or value == "":
        return {}
    if isinstance(value, dict):
        return dict(value)
    return {UNPARSED_KEY: raw if isinstance(raw, str) else json.dumps(raw, default=str)}


def call_id(name: str, args: dict[str, Any], index: int, salt: str = "") -> str:
    """A stable id for a call that came without one: the same reply always gets the same ids."""
    digest = hashlib.sha1(f"{salt}|{index}|{name}|{json.dumps(args, sort_keys=True, default=str)}".encode())
    return "call_" + digest.hexdigest()[:12]
