"""Requests in the dialect of llama-cpp-python's server (the embedded model's server).

Measured against llama-cpp-python 0.3.36 with --chat_format chatml-function-calling, it differs from the
OpenAI API in ways that break the standard client path; each rewrite below fixes one:

- response_format {"type": "json_schema"} is an HTTP 500 (a validation error): {"type": "json_object",
  "schema": S} is its grammar-constrained equivalent.
- tools=[...] without tool_choice are silently ignored: "auto" must be explicit. "required" is a 500:
  one tool becomes a named choice (grammar-constrained), several become "auto".
- an assistant message with tool calls and content null is a 500: content must be a string.
- the chat template drops the content of role "tool" messages: results go back as user messages.
- max_completion_tokens is ignored: the cap must travel as max_tokens.
- streaming with tools fails (no chunks), and a stream never reports usage (stream_options is ignored), so
  the prompt tokens the server counted would be lost: ChatLlamaCppPython never streams.
- a tiny model copies placeholders as arguments (`{"path": "{path}"}`): the tools' schemas, which this server
  decodes with as a grammar, are narrowed to the files the request shows (providers/tool_grammar.py).
"""

from __future__ import annotations

import json
from typing import Any, Literal

from langchain_core.language_models import LanguageModelInput
from langchain_openai import ChatOpenAI
from pydantic import PrivateAttr

from slmcode.providers.prompts import TOOL_RESULT_AS_USER
from slmcode.providers.tool_grammar import EDITING_ROLES, StepMemory, constrain_tools, next_step

Payload = dict[str, Any]
Message = dict[str, Any]


def text_of(content: Any) -> str:
    """A message content as plain text: strings as they are, content blocks joined."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(b.get("text", "") if isinstance(b, dict) else str(b) for b in content)
    return json.dumps(content)


def adapt_messages(messages: list[Message]) -> list[Message]:
    """Tool results as user messages (the template would drop them); assistant content never null."""
    call_names: dict[str, str] = {}
    adapted: list[Message] = []
    for message in messages:
        role = message.get("role")
        if role == "assistant":
            for call in message.get("tool_calls") or []:
                call_names[str(call.get("id"))] = str(call.get("function", {}).get("name", "tool"))
            adapted.append({**message, "content": text_of(message.get("content"))})
        elif role == "tool":
            name = call_names.get(str(message.get("tool_call_id")), "tool")
            text = TOOL_RESULT_AS_USER.format(name=name, result=text_of(message.get("content")))
            adapted.append({"role": "user", "content": text})
        else:
            adapted.append(message)
    return adapted


def adapt_response_format(response_format: Any) -> Any:
    """json_schema -> json_object with the schema: the same grammar-constrained decoding, in this server's words."""
    if isinstance(response_format, dict) and response_format.get("type") == "json_schema":
        schema = (response_format.get("json_schema") or {}).get("schema")
        return {"type": "json_object", "schema": schema} if schema else {"type": "json_object"}
    return response_format


def adapt_tool_choice(tools: list[Any], tool_choice: Any) -> Any:
    if tool_choice in (None, "auto"):
        return "auto"
    if tool_choice in ("required", "any"):
        if len(tools) == 1:
            return {"type": "function", "function": {"name": tools[0]["function"]["name"]}}
        return "auto"
    return tool_choice


def adapt_payload(payload: Payload, role: str = "", steps: StepMemory | None = None) -> Payload:
    """The request rewritten for llama-cpp-python's server; the input is left untouched. A worker's or
    corrector's next step may be chosen for it (providers/tool_grammar.py: read, then edit, each shown file),
    remembered in `steps`, the client's memory."""
    adapted = dict(payload)
    step = (
        next_step(adapted["tools"], list(adapted.get("messages") or []), steps)
        if (role in EDITING_ROLES and adapted.get("tools") and steps is not None)
        else None
    )
    if step is not None:
        adapted["tools"], adapted["tool_choice"] = step
    if "messages" in adapted:
        adapted["messages"] = adapt_messages(list(adapted["messages"]))
    if "response_format" in adapted:
        adapted["response_format"] = adapt_response_format(adapted["response_format"])
    if adapted.get("tools") and step is None:
        adapted["tool_choice"] = adapt_tool_choice(adapted["tools"], adapted.get("tool_choice"))
        adapted["tools"] = constrain_tools(adapted["tools"], list(adapted.get("messages") or []))
    if "max_completion_tokens" in adapted:
        cap = adapted.pop("max_completion_tokens")
        extra = dict(adapted.get("extra_body") or {})
        extra.setdefault("max_tokens", cap)
        adapted["extra_body"] = extra
    return adapted


class ChatLlamaCppPython(ChatOpenAI):
    """ChatOpenAI speaking llama-cpp-python's dialect; everything else (retries, parsing) is ChatOpenAI's."""

    disable_streaming: bool | Literal["tool_calling"] = True
    # What each of this client's conversations has read and edited (tool_grammar.StepMemory): the role table
    # makes a client per role per run, so the memory is the run's.
    _steps: StepMemory = PrivateAttr(default_factory=StepMemory)

    def _get_request_payload(
        self, input_: LanguageModelInput, *, stop: list[str] | None = None, **kwargs: Any
    ) -> Payload:
        payload = super()._get_request_payload(input_, stop=stop, **kwargs)
        return adapt_payload(payload, getattr(self, "role", ""), self._steps)
