"""What one request showed the simulated model: every message's text (the pack, the task, earlier tool results)
and its own earlier calls paired with their results, read off the OpenAI-format request the server received,
as a model would read its prompt. Nothing else reaches the model: no workspace, no state between requests."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from slmcode.tools.registry import EDIT, READ, WRITE_TOOLS

Request = dict[str, Any]


def content_text(content: Any) -> str:
    if isinstance(content, list):
        return "".join(b.get("text", "") for b in content if isinstance(b, dict))
    return str(content or "")


@dataclass(frozen=True)
class Step:
    """One earlier call of the model and what came back (None: no result in this request)."""

    name: str
    args: dict[str, Any]
    result: str | None

    @property
    def failed(self) -> bool:
        return self.result is None or self.result.lstrip().startswith("Error")

    @property
    def path(self) -> str:
        return str(self.args.get("path") or "").strip().lstrip("./") if self.args.get("path") else ""


# How the harness offers a file's whole-file rewrite after old_str missed (tools/prompts.EDIT_OFFER_WHOLE), as the
# model reads it.
REWRITE_OFFER = "Rewrite the whole file instead"


@dataclass
class Shown:
    text: str = ""  # everything the request showed, joined
    system: str = ""
    steps: list[Step] = field(default_factory=list)
    assistant_turns: int = 0
    tools: set[str] = field(default_factory=set)  # the tools the request offered
    last_user: str = ""  # the last user message after its first answer: what it was told of its work

    def rewrite_offered(self, path: str) -> bool:
        return any(
            s.name == EDIT and s.path == path and s.failed and REWRITE_OFFER in (s.result or "") for s in self.steps
        )

    def seen(self, line: str) -> bool:
        return line in self.text

    def read_ok(self, path: str) -> list[Step]:
        return [s for s in self.steps if s.name == READ and s.path == path and not s.failed]

    def last(self) -> Step | None:
        return self.steps[-1] if self.steps else None

    def after_last_write(self) -> list[Step]:
        """The steps since the last successful write or edit."""
        at = max((i for i, s in enumerate(self.steps) if s.name in WRITE_TOOLS and not s.failed), default=-1)
        return self.steps[at + 1 :]


def _arguments(raw: Any) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    try:
        value = json.loads(raw or "{}")
    except (TypeError, json.JSONDecodeError):
        return {}
    return value if isinstance(value, dict) else {}


def read_request(request: Request) -> Shown:
    shown = Shown(
        tools={str(t.get("function", {}).get("name")) for t in request.get("tools") or [] if isinstance(t, dict)}
    )
    results = {
        m.get("tool_call_id"): content_text(m.get("content"))
        for m in request.get("messages", [])
        if m.get("role") == "tool"
    }
    texts = []
    for message in request.get("messages", []):
        role, text = message.get("role"), content_text(message.get("content"))
        if role in ("system", "developer"):
            shown.system += text + "\n"
        if role == "user" and shown.assistant_turns:
            shown.last_user = text
        if role == "assistant":
            shown.assistant_turns += 1
            for call in message.get("tool_calls") or []:
                function = call.get("function", {})
                shown.steps.append(
                    Step(function.get("name", ""), _arguments(function.get("arguments")), results.get(call.get("id")))
                )
        texts.append(text)
    shown.text = "\n".join(texts)
    return shown
