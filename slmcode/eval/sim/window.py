"""A server window smaller than the harness assumes: what Ollama does with a prompt over its num_ctx. It keeps
the system messages and the newest messages that fit, drops the older ones, and cuts the front of the oldest
kept message when even that one does not fit, and answers with HTTP 200 as if nothing happened. Tokens are
counted as chars / 4: the server counts with its own tokenizer, not the harness's."""

from __future__ import annotations

import json
from typing import Any

from slmcode.eval.sim.shown import Request, content_text

CHARS_PER_TOKEN = 4
TRUNCATED = "...[front cut by the server's window]..."


def message_tokens(message: dict[str, Any]) -> int:
    calls = json.dumps(message.get("tool_calls") or "")
    return (len(content_text(message.get("content"))) + len(calls)) // CHARS_PER_TOKEN + 4


def request_tokens(request: Request) -> int:
    tools = len(json.dumps(request.get("tools") or "")) // CHARS_PER_TOKEN
    return tools + sum(message_tokens(m) for m in request.get("messages") or [])


def _cut_front(messages: list[dict[str, Any]], over: int) -> list[dict[str, Any]]:
    """Messages with `over` tokens' worth of text cut from the front of the whole prompt (the last one stays)."""
    chars, out = over * CHARS_PER_TOKEN, []
    for i, message in enumerate(messages):
        text = content_text(message.get("content"))
        if chars <= 0:
            out.append(message)
        elif len(text) <= chars and i < len(messages) - 1:
            chars -= len(text) + 4 * CHARS_PER_TOKEN
        else:
            out.append({**message, "content": TRUNCATED + text[min(chars, len(text)) :]})
            chars = 0
    return out


def fit_window(request: Request, window: int) -> tuple[Request, int]:
    """The request as the server keeps it, and how many messages it dropped or cut (0: all kept whole).
    window 0: no limit. First Ollama's chat truncation (system messages and the newest messages that fit),
    then, if the rest is still over, the runner's: the front of the prompt is cut."""
    if window <= 0 or request_tokens(request) <= window:
        return request, 0
    messages = list(request.get("messages") or [])
    system = [m for m in messages if m.get("role") in ("system", "developer")]
    rest = [m for m in messages if m.get("role") not in ("system", "developer")]
    room = window - len(json.dumps(request.get("tools") or "")) // CHARS_PER_TOKEN
    room -= sum(message_tokens(m) for m in system)
    kept: list[dict[str, Any]] = []
    for message in reversed(rest):
        if kept and message_tokens(message) > room:
            break
        kept.insert(0, message)
        room -= message_tokens(message)
    fitted = {**request, "messages": [*system, *kept]}
    over = request_tokens(fitted) - window
    if over > 0:
        fitted["messages"] = _cut_front(fitted["messages"], over)
    return fitted, len(messages) - len(fitted["messages"]) + (1 if over > 0 else 0)
