"""A model call in flight, as it streams: how many tokens have arrived, how fast, and the last words, so the
board, chat and the web view's live page show a call working instead of a still screen (a small model on a CPU
takes tens of seconds a call). Streamed to the watchers every half second; kept in the trace every few seconds
(the web view reads the trace, not the stream). Counted with the budget's own counter over the text and the
tool-call arguments received; the call's `model_call` event, from the server's usage, replaces it at the end."""

from __future__ import annotations

import time
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime

from slmcode.budget.tokens import count_tokens
from slmcode.run_context import RunContext, emit, stream

STREAM_EVERY = 0.5  # seconds between two updates on the board
TRACE_EVERY = 3.0  # seconds between two rows in the trace
TAIL_CHARS = 72


class CallProgress(BaseCallbackHandler):
    """Hears one call's tokens (langchain's on_llm_new_token) and says how far it got."""

    def __init__(self, runtime: Runtime[RunContext], run_id: str, role: str, task_id: str | None) -> None:
        self.runtime, self.run_id, self.role, self.task_id = runtime, run_id, role, task_id
        self.started = time.monotonic()
        self.text = ""
        self.streamed = self.traced = 0.0

    def on_llm_new_token(self, token: Any, *, chunk: Any = None, **kwargs: Any) -> None:
        message = getattr(chunk, "message", None)
        arguments = "".join(c.get("args") or "" for c in getattr(message, "tool_call_chunks", None) or [])
        self.text += (token if isinstance(token, str) else "") + arguments
        now = time.monotonic()
        if now - self.streamed < STREAM_EVERY or not self.text:
            return
        self.streamed = now
        seconds = now - self.started
        tokens = count_tokens(self.text)
        data: dict[str, Any] = {
            "seconds": round(seconds, 1),
            "tokens": tokens,
            "tokens_per_second": round(tokens / seconds, 1) if seconds > 0 else None,
            "tail": " ".join(self.text[-TAIL_CHARS * 2 :].split())[-TAIL_CHARS:],
        }
        if now - self.traced >= TRACE_EVERY:
            self.traced = now
            emit(self.runtime, self.run_id, "model_progress", role=self.role, task_id=self.task_id, **data)
        else:
            stream(self.runtime, "model_progress", role=self.role, task_id=self.task_id, **data)


def progress_config(runtime: Runtime[RunContext], run_id: str, role: str, task_id: str | None) -> RunnableConfig:
    """The invoke config that streams one call's progress to whoever watches the run."""
    return {"callbacks": [CallProgress(runtime, run_id, role, task_id)]}
