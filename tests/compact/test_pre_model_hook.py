"""The pre-model hook as public API: LangGraph's prebuilt agent with `make_pre_model_hook` sends the scripted
server the request a slmcode worker would send for the same conversation (old rounds elided or digested), while the
agent's stored messages stay whole."""

from __future__ import annotations

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
from langgraph.prebuilt import create_react_agent

from slmcode.budget.room import limits_for
from slmcode.compact import make_pre_model_hook, pre_model_hook
from slmcode.compact.prompts import ELIDED_TOOL_RESULT
from slmcode.compact.request_view import request_view
from slmcode.config import Settings
from tests.fake_llm import FakeLLM, Reply, tool_call

SETTINGS = Settings(model="test-model")
WINDOW = 2048
BODY = "\n".join(f"{i:>4}  value_{i} = compute(value_{i - 1}, {i})" for i in range(60))


@tool
def read(path: str) -> str:
    """Read a file."""
    return f"{path}\n{BODY}"


def test_the_prebuilt_agent_sends_the_workers_view(fake_llm: FakeLLM) -> None:
    reads = [Reply(tool_calls=[tool_call("read", path=f"src/f{n}.py")]) for n in range(8)]
    fake_llm.push(*reads, Reply("done"))
    model = ChatOpenAI(base_url=fake_llm.url, api_key="none", model="fake-model", max_retries=0)
    agent = create_react_agent(model, [read], pre_model_hook=make_pre_model_hook(SETTINGS, WINDOW))
    opening = [SystemMessage("You are a coding agent."), HumanMessage("Read every file in src/.")]

    state = agent.invoke({"messages": opening})

    last = fake_llm.requests[-1]["messages"]
    stored = state["messages"][:-1]  # what the model saw before its final answer
    expected = request_view(stored, settings=SETTINGS, limits=limits_for(SETTINGS, WINDOW)).messages
    assert [m.get("content") or "" for m in last] == [m.content for m in expected]
    sent = [m for m in last if m["role"] == "tool" and m.get("content") != ELIDED_TOOL_RESULT]
    assert len(sent) < 8 and "<resume>" in last[1]["content"]  # old rounds reached the server digested
    assert all(BODY in m.content for m in state["messages"] if isinstance(m, ToolMessage))  # the state kept them


def test_the_default_hook_returns_input_messages_and_leaves_a_short_conversation_whole() -> None:
    messages = [SystemMessage("You are a coding agent."), HumanMessage("hi"), AIMessage("hello")]
    assert pre_model_hook({"messages": messages}) == {"llm_input_messages": messages}
