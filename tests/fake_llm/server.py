"""The scripted server lives in slmcode/eval/scripted.py, where `slmcode eval --replay` serves recorded answers
with it; the tests import it from here as they always did."""

from slmcode.eval.scripted import FakeLLM, Reply, Request, Rule, request_text, system_text, tool_call

__all__ = ["FakeLLM", "Reply", "Request", "Rule", "request_text", "system_text", "tool_call"]
