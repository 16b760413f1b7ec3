"""Requests rewritten for llama-cpp-python's server; what its real server does with them is in test_embedded_model."""

from __future__ import annotations

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from pydantic import BaseModel

from slmcode.config import Settings
from slmcode.providers.llama_dialect import ChatLlamaCppPython, adapt_payload
from slmcode.providers.roles import RoleTable
from slmcode.providers.structured import answer_schema, schema_format
from tests.fake_llm import FakeLLM

READ = {"type": "function", "function": {"name": "read_file", "parameters": {"type": "object"}}}
LIST = {"type": "function", "function": {"name": "list_files", "parameters": {"type": "object"}}}


class Person(BaseModel):
    name: str


def test_json_schema_becomes_the_grammar_constrained_json_object_with_the_same_schema() -> None:
    adapted = adapt_payload({"messages": [], "response_format": schema_format(Person)})
    assert adapted["response_format"] == {"type": "json_object", "schema": answer_schema(Person)}
    assert adapted["response_format"]["schema"]["properties"]["name"]["type"] == "string"


def test_tools_without_a_choice_get_auto_because_the_server_ignores_them_otherwise() -> None:
    assert adapt_payload({"messages": [], "tools": [READ]})["tool_choice"] == "auto"
    assert "tool_choice" not in adapt_payload({"messages": []})


def test_required_becomes_a_named_choice_for_one_tool_and_auto_for_several() -> None:
    one = adapt_payload({"messages": [], "tools": [READ], "tool_choice": "required"})
    assert one["tool_choice"] == {"type": "function", "function": {"name": "read_file"}}
    several = adapt_payload({"messages": [], "tools": [READ, LIST], "tool_choice": "required"})
    assert several["tool_choice"] == "auto"


def test_tool_results_go_back_as_user_messages_naming_the_tool_and_calls_keep_a_string_content() -> None:
    messages = [
        {"role": "user", "content": "read it"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "read_file", "arguments": "{}"}}],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "# Hello"},
    ]
    adapted = adapt_payload({"messages": messages})["messages"]
    assert adapted[1]["content"] == ""
    assert adapted[1]["tool_calls"] == messages[1]["tool_calls"]
    assert adapted[2]["role"] == "user"
    assert "read_file" in adapted[2]["content"] and "# Hello" in adapted[2]["content"]
    assert messages[1]["content"] is None  # the caller's payload is not mutated


def test_max_completion_tokens_travels_as_max_tokens() -> None:
    adapted = adapt_payload({"messages": [], "max_completion_tokens": 64})
    assert "max_completion_tokens" not in adapted
    assert adapted["extra_body"] == {"max_tokens": 64}


def test_the_factory_speaks_the_dialect_only_to_the_embedded_server() -> None:
    plain = RoleTable(Settings(base_url="http://127.0.0.1:9/v1")).client("worker")
    llama = RoleTable(Settings(base_url="http://127.0.0.1:9/v1", server_dialect="llama-cpp-python")).client("worker")
    assert not isinstance(plain, ChatLlamaCppPython)
    assert isinstance(llama, ChatLlamaCppPython)


def test_the_client_sends_the_rewritten_request(fake_llm: FakeLLM) -> None:
    fake_llm.push("done")
    settings = Settings(base_url=fake_llm.url, server_dialect="llama-cpp-python")
    call = AIMessage("", tool_calls=[{"name": "read_file", "args": {"path": "a"}, "id": "c1"}])
    conversation = [HumanMessage("read a"), call, ToolMessage("alpha", tool_call_id="c1")]
    RoleTable(settings).client("worker").bind_tools([READ]).invoke(conversation)
    sent = fake_llm.requests[-1]
    assert sent["tool_choice"] == "auto"
    assert sent["stream"] is False
    assert [m["role"] for m in sent["messages"]] == ["user", "assistant", "user"]
    assert "max_tokens" in sent
