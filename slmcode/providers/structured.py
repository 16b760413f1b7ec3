"""Structured output from small models: a pydantic schema in, a typed value or a typed failure out.

Ask with a json_schema response format where the server supports it (constrained decoding: even a tiny
model then returns schema-valid JSON); otherwise parse leniently (code fences, leading prose, trailing
commas, <think> blocks), validate, and re-ask with the validation error, at most max_retries times.
A bad answer never raises. An unreachable server does: that is the user's to fix, not the model's.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

import json_repair
import openai
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from pydantic import BaseModel, ValidationError
from pydantic.json_schema import GenerateJsonSchema

from slmcode.errors import EndpointError, ServerRefusedError, ServerStatusError, ServerUnreachableError
from slmcode.providers.prompts import REASK, SCHEMA_INSTRUCTION

# Statuses no re-ask can cure: the run stops at the first instead of every role failing its way to the worker.
REFUSED = {
    401: "is the api_key right?",
    403: "is the api_key right?",
    404: "does the server serve --model, and is --base-url its /v1 endpoint?",
}

T = TypeVar("T", bound=BaseModel)
Mode = Literal["auto", "json_schema", "prompt"]

REASK_ECHO_CHARS = 600  # how much of an invalid answer is shown back to the model
_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)


@dataclass(frozen=True)
class Call:
    """One model call: what came back and what it cost."""

    raw: str
    latency_ms: float
    prompt_tokens: int | None
    completion_tokens: int | None
    constrained: bool


@dataclass(frozen=True)
class Structured(Generic[T]):
    value: T
    calls: list[Call] = field(default_factory=list)

    ok: bool = True


@dataclass(frozen=True)
class StructuredFailure:
    reason: str
    calls: list[Call] = field(default_factory=list)

    ok: bool = False


def extract_json(text: str) -> Any:
    """The JSON value in a model's answer, however it was wrapped; raises ValueError when there is none."""
    text = _THINK.sub("", text).strip()
    fenced = _FENCE.search(text)
    if fenced:
        text = fenced.group(1).strip()
    starts = [i for i in (text.find("{"), text.find("[")) if i >= 0]
    if not starts:
        raise ValueError("no JSON object in the answer")
    start = min(starts)
    end = max(text.rfind("}"), text.rfind("]"))
    candidate = text[start : end + 1] if end > start else text[start:]
    try:
        return json.loads(candidate)
    except json.JSONDecodeError:
        repaired = json_repair.loads(candidate)
        if repaired in ("", None, [], {}) and candidate.strip() not in ("{}", "[]"):
            raise ValueError("the answer is not valid JSON and could not be repaired") from None
        return repaired


class _NoFieldTitles(GenerateJsonSchema):
    """Pydantic titles every field with its own name ("focus_files": {"title": "Focus Files"}): the same words
    twice in every structured request. The models' titles stay: they name the answer."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False


def answer_schema(schema: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema a structured request sends for `schema`, and what its budget counts."""
    return schema.model_json_schema(schema_generator=_NoFieldTitles)


def answer_schema_text(schema: type[BaseModel]) -> str:
    """answer_schema as the request's message carries it (sorted keys: the same bytes every run)."""
    return json.dumps(answer_schema(schema), sort_keys=True)


def _descriptions(node: Any) -> set[str]:
    if isinstance(node, dict):
        own = {node["description"].strip().lower()} if isinstance(node.get("description"), str) else set()
        return own.union(*(_descriptions(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_descriptions(v) for v in node))
    return set()


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def echoed_descriptions(data: Any, schema: type[BaseModel]) -> list[str]:
    """Values that only repeat a field's description: tiny models copy the schema instead of answering."""
    descriptions = _descriptions(answer_schema(schema))
    return [s for s in _strings(data) if s.strip().lower() in descriptions]


def schema_format(schema: type[BaseModel]) -> dict[str, Any]:
    return {
        "type": "json_schema",
        "json_schema": {"name": schema.__name__, "schema": answer_schema(schema), "strict": False},
    }


def _short_error(exc: ValidationError | ValueError) -> str:
    if isinstance(exc, ValidationError):
        parts = []
        for err in exc.errors()[:5]:
            where = ".".join(str(p) for p in err["loc"]) or "(top level)"
            parts.append(f"{where}: {err['msg']}")
        return "; ".join(parts)
    return str(exc)


def _invoke(
    model: BaseChatModel,
    messages: list[BaseMessage],
    response_format: dict[str, Any] | None,
    config: RunnableConfig | None = None,
) -> Call:
    kwargs: dict[str, Any] = {"response_format": response_format} if response_format else {}
    started = time.perf_counter()
    try:
        answer = model.invoke(messages, config, **kwargs)
    except ServerUnreachableError as exc:
        if exc.timed_out:  # the server is there but slow: saying "unreachable" would send users astray
            waited = time.perf_counter() - started
            raise EndpointError(
                f"the model did not answer within request_timeout ({waited:.0f} s with retries): "
                "too slow on this machine now; raise request_timeout or use a faster model"
            ) from None
        raise
    except openai.LengthFinishReasonError as exc:
        # The client's parse() raises when a constrained answer hits the cap (a tiny model looping inside a
        # JSON string): the model's fault, so the truncated text goes back to it like any invalid answer.
        return _truncated_call(exc, started, constrained=response_format is not None)
    usage = getattr(answer, "usage_metadata", None) or {}
    content = answer.content if isinstance(answer.content, str) else json.dumps(answer.content)
    return Call(
        raw=content,
        latency_ms=(time.perf_counter() - started) * 1000,
        prompt_tokens=usage.get("input_tokens"),
        completion_tokens=usage.get("output_tokens"),
        constrained=response_format is not None,
    )


def _truncated_call(exc: openai.LengthFinishReasonError, started: float, *, constrained: bool) -> Call:
    choices = exc.completion.choices
    usage = exc.completion.usage
    return Call(
        raw=(choices[0].message.content or "") if choices else "",
        latency_ms=(time.perf_counter() - started) * 1000,
        prompt_tokens=usage.prompt_tokens if usage else None,
        completion_tokens=usage.completion_tokens if usage else None,
        constrained=constrained,
    )


def ask_structured(
    model: BaseChatModel,
    messages: list[BaseMessage],
    schema: type[T],
    *,
    max_retries: int = 2,
    mode: Mode = "auto",
    config: RunnableConfig | None = None,
) -> Structured[T] | StructuredFailure:
    """Ask for `schema`; 1 + max_retries calls at most. Falls back from json_schema when the server refuses it.
    `config`: the invoke config of each call (the callbacks that show a call's progress)."""
    opening = [*messages, HumanMessage(SCHEMA_INSTRUCTION.format(schema=answer_schema_text(schema)))]
    conversation = opening
    constrained = mode in ("auto", "json_schema")
    calls: list[Call] = []
    last_error = "no answer"
    while len(calls) <= max_retries:
        try:
            call = _invoke(model, conversation, schema_format(schema) if constrained else None, config)
        except ServerRefusedError as exc:
            if constrained and mode == "auto":
                constrained = False  # the server does not do json_schema: plain prompting from here on
                continue
            return StructuredFailure(f"the server refused the request: {exc.detail}", calls)
        except ServerStatusError as exc:
            if exc.status_code in REFUSED:  # not the model's answer: every later request gets the same
                raise EndpointError(
                    f"the model server refused the request ({exc.status_code}): {exc.detail}; "
                    f"{REFUSED[exc.status_code]}"
                ) from None
            last_error = f"server error {exc.status_code}"
            calls.append(Call("", 0.0, None, None, constrained))
            continue
        calls.append(call)
        try:
            data = extract_json(call.raw)
            echoed = echoed_descriptions(data, schema)
            if echoed:
                raise ValueError(f"{echoed[0]!r} is the schema's description of a field, not a value: write your own")
            return Structured(schema.model_validate(data), calls)
        except (ValidationError, ValueError) as exc:
            last_error = _short_error(exc)
        # Replace, not append: every re-ask stays the size of the first request plus one clipped answer, so a
        # small window never overflows and the server's cached prefix holds.
        conversation = [*opening, AIMessage(call.raw[:REASK_ECHO_CHARS]), HumanMessage(REASK.format(error=last_error))]
    return StructuredFailure(f"no valid {schema.__name__} after {len(calls)} answers: {last_error}", calls)
