"""Which role a request asks the simulated model to play, and its answer for every role that wants JSON: read
from the request as a model would (the response_format's schema or the schema in the prompt, the tools, the
system prompt), so a phase added later is answered too (a schema-valid minimal value). Schema errors (prose
around the JSON, a missing field, a wrong type) are drawn here for the structured roles."""

from __future__ import annotations

import json
import re
from typing import Any

from slmcode.eval.prompts import BASELINE_SYSTEM
from slmcode.eval.sim.errors import Dice
from slmcode.eval.sim.judges import guess_check, review
from slmcode.eval.sim.knowledge import Knowledge
from slmcode.eval.sim.shown import Request, Shown, content_text
from slmcode.nodes.prompts import SYSTEM

SCHEMA_IN_PROMPT = re.compile(r"It must match this JSON schema:\s*(\{.*\})\s*$", re.DOTALL)


def schema_of(request: Request) -> dict[str, Any] | None:
    """The JSON schema the request wants its answer to fit, from response_format or from the prompt's text."""
    fmt = request.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return (fmt.get("json_schema") or {}).get("schema") or {}
    messages = request.get("messages") or []
    last = content_text(messages[-1].get("content")) if messages else ""
    found = SCHEMA_IN_PROMPT.search(last)
    if found:
        try:
            return json.loads(found.group(1))
        except json.JSONDecodeError:
            return None
    return None


def tool_role(shown: Shown) -> str:
    """worker, corrector, tester, explorer or baseline, from the system prompt (worker when none matches)."""
    if BASELINE_SYSTEM in shown.system:
        return "baseline"
    for role in ("tester", "corrector", "explorer", "worker"):
        if SYSTEM[role] in shown.system:
            return role
    return "worker"


def _filled(schema: dict[str, Any], defs: dict[str, Any]) -> Any:
    """A minimal value that fits `schema`: every required field, with the simplest value of its type."""
    if "$ref" in schema:
        return _filled(defs.get(schema["$ref"].rsplit("/", 1)[-1], {}), defs)
    if "enum" in schema:
        return schema["enum"][0]
    if "anyOf" in schema:
        return _filled(schema["anyOf"][0], defs)
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        props = schema.get("properties", {})
        return {k: _filled(props[k], defs) for k in schema.get("required", []) if k in props}
    return {"array": [], "string": "ok", "boolean": True, "integer": 0, "number": 0, "null": None}.get(str(kind), "")


def _first_sentence(text: str) -> str:
    return re.split(r"(?<=[.!?])\s", text.strip(), maxsplit=1)[0][:200]


def structured_value(
    schema: dict[str, Any], knowledge: Knowledge, shown: Shown, request: Request, reference: Knowledge, dice: Dice
) -> Any:
    """What it answers for the schema's title: the pipeline's own phases by name, anything else minimal. The
    planner's check is its guess from what it was shown; the reviewer judges against `reference` (judges.py)."""
    task = knowledge.task
    criterion = {"text": "the tests pass", "priority": "must", "verify": guess_check(shown)}
    files = [c.path for c in knowledge.changes if c.path in shown.text]  # only what it was shown
    title = schema.get("title", "")
    if title == "Clarification":
        return {"requirements": [_first_sentence(task.prompt)], "questions": []}
    if title == "Scope":
        return {"criteria": [criterion]}
    if title == "Plan":
        return {"steps": [{"step": task.title, "files": files}]}
    if title == "Split":
        return {
            "tasks": [
                {
                    "title": task.title,
                    "description": task.prompt,
                    "focus_files": files,
                    "depends_on": [],
                    "criteria": [criterion],
                }
            ]
        }
    if title == "Review":
        asked = next(
            (
                content_text(m.get("content"))
                for m in reversed(request.get("messages") or [])
                if "Checks:" in content_text(m.get("content"))
            ),
            "",
        )
        return review(asked, reference, dice)
    if title == "Escalation":
        return {"decision": "give_up", "guidance": ""}
    if title == "Lessons":
        return {"lessons": []}
    return _filled(schema, schema.get("$defs", {}))


def _wrong_type(value: Any) -> Any:
    if isinstance(value, list):
        return "; ".join(json.dumps(v) for v in value) or "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return 42
    return [value]


def structured_text(value: Any, dice: Dice) -> str:
    """The answer's text: the JSON, or (at the profile's schema_error rate) one of three misfits."""
    if not dice.rolls("schema_error") or not isinstance(value, dict) or not value:
        return json.dumps(value)
    kind = dice.rng.choice(("prose", "missing", "wrong_type"))
    dice.made[-1] = f"schema_error:{kind}"
    key = next(iter(value))
    if kind == "prose":
        return f"Sure! Here is my answer:\n```json\n{json.dumps(value, indent=1)}\n```\nLet me know if you need more."
    if kind == "missing":
        return json.dumps({k: v for k, v in value.items() if k != key})
    return json.dumps({**value, key: _wrong_type(value[key])})
