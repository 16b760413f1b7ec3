"""The scripted OpenAI-compatible server used by every test that needs a model."""

from tests.fake_llm.server import FakeLLM, Reply, request_text, system_text, tool_call

__all__ = ["FakeLLM", "Reply", "request_text", "system_text", "tool_call"]
