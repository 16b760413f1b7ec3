"""The structured-output helper against the scripted server over real HTTP."""

from __future__ import annotations

from langchain_core.messages import HumanMessage
from pydantic import BaseModel, Field

from slmcode.config import Settings
from slmcode.providers.roles import RoleTable
from slmcode.providers.structured import Structured, StructuredFailure, ask_structured, extract_json
from tests.fake_llm import FakeLLM, Reply


class Plan(BaseModel):
    steps: list[str]
    risky: bool


def model_for(fake: FakeLLM, **overrides: object):
    return RoleTable(Settings(base_url=fake.url, model="fake-model", request_retries=0, **overrides)).client("planner")


def ask(fake: FakeLLM, max_retries: int = 2, mode: str = "auto") -> Structured[Plan] | StructuredFailure:
    return ask_structured(model_for(fake), [HumanMessage("plan it")], Plan, max_retries=max_retries, mode=mode)


def test_recovers_a_fenced_answer_with_a_trailing_comma(fake_llm: FakeLLM) -> None:
    fake_llm.push('Sure! Here it is:\n```json\n{"steps": ["read", "edit",], "risky": false,}\n```')
    result = ask(fake_llm)
    assert isinstance(result, Structured)
    assert result.value == Plan(steps=["read", "edit"], risky=False)
    assert len(fake_llm.requests) == 1


def test_reasks_with_the_validation_error_then_accepts(fake_llm: FakeLLM) -> None:
    fake_llm.push('{"steps": "read"}', '{"steps": ["read"], "risky": true}')
    result = ask(fake_llm)
    assert isinstance(result, Structured) and result.value.risky is True
    second = fake_llm.requests[1]["messages"]
    assert second[-2]["content"] == '{"steps": "read"}'
    assert "steps: Input should be a valid list" in second[-1]["content"]
    assert "risky: Field required" in second[-1]["content"]


def test_returns_a_typed_failure_after_max_retries(fake_llm: FakeLLM) -> None:
    fake_llm.push("no idea", "still no idea", "banana", "never asked")
    result = ask(fake_llm, max_retries=2)
    assert isinstance(result, StructuredFailure)
    assert len(fake_llm.requests) == 3
    assert "no valid Plan after 3 answers" in result.reason


def test_sends_a_json_schema_response_format_and_max_tokens(fake_llm: FakeLLM) -> None:
    fake_llm.push('{"steps": [], "risky": false}')
    assert isinstance(ask(fake_llm), Structured)
    request = fake_llm.requests[0]
    assert request["response_format"]["type"] == "json_schema"
    assert request["response_format"]["json_schema"]["schema"]["required"] == ["steps", "risky"]
    assert request["max_tokens"] > 0  # what llama.cpp honours


def test_falls_back_to_prompting_when_the_server_refuses_json_schema(fake_llm: FakeLLM) -> None:
    fake_llm.json_schema_supported = False
    fake_llm.push('{"steps": ["x"], "risky": false}')
    result = ask(fake_llm)
    assert isinstance(result, Structured)
    assert "response_format" not in fake_llm.requests[-1]


def test_prompt_mode_never_sends_a_response_format(fake_llm: FakeLLM) -> None:
    fake_llm.push('{"steps": ["x"], "risky": false}')
    assert isinstance(ask(fake_llm, mode="prompt"), Structured)
    assert "response_format" not in fake_llm.requests[0]


def test_server_errors_count_as_attempts_and_end_in_a_typed_failure(fake_llm: FakeLLM) -> None:
    fake_llm.push(Reply(status=500, content="boom"), Reply(status=500, content="boom"), Reply(status=500))
    result = ask(fake_llm, max_retries=2)
    assert isinstance(result, StructuredFailure) and "server error 500" in result.reason


def test_an_answer_cut_at_the_length_cap_is_reasked_not_raised(fake_llm: FakeLLM) -> None:
    # A tiny model under constrained decoding can loop inside a JSON string until the cap.
    fake_llm.push(Reply('{"steps": ["aaaaaaaa', finish_reason="length"), '{"steps": ["read"], "risky": false}')
    result = ask(fake_llm)
    assert isinstance(result, Structured)
    assert result.calls[0].raw == '{"steps": ["aaaaaaaa'
    assert len(fake_llm.requests) == 2


def test_extract_json_strips_think_blocks_and_prose() -> None:
    assert extract_json('<think>{"no": 1}</think> ok: {"a": 1}') == {"a": 1}


class Titled(BaseModel):
    title: str = Field(description="A short title.")


def test_an_answer_that_copies_the_schema_descriptions_is_asked_again(fake_llm: FakeLLM) -> None:
    fake_llm.push('{"title": "A short title."}', '{"title": "Add divide"}')
    result = ask_structured(model_for(fake_llm), [HumanMessage("name it")], Titled, max_retries=2)
    assert isinstance(result, Structured) and result.value.title == "Add divide"
    assert "is the schema's description of a field" in fake_llm.requests[1]["messages"][-1]["content"]


def test_the_schema_a_request_carries_names_each_field_once(fake_llm: FakeLLM) -> None:
    fake_llm.push('{"steps": [], "risky": false}')
    assert isinstance(ask(fake_llm), Structured)
    request = fake_llm.requests[0]
    sent = request["response_format"]["json_schema"]["schema"]
    assert sent["title"] == "Plan" and sent["properties"]["steps"] == {"items": {"type": "string"}, "type": "array"}
    instruction = request["messages"][-1]["content"]
    assert '"title": "Steps"' not in instruction and '"title": "Risky"' not in instruction
    assert '"steps": {"items": {"type": "string"}, "type": "array"}' in instruction
