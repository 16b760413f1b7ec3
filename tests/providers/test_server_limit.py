"""A prompt the server would cut is never sent: each role on a server of its own is sized to that
server's window, and a request past what the run's server keeps (a user's context_limit larger than the server's
window) is refused before it leaves. The server here answers as Ollama does and, as Ollama does, drops the front
of a request past num_ctx with HTTP 200; it counts each cut."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage

from slmcode import api
from slmcode.budget.tokens import count_message_tokens
from slmcode.config import RoleModel, Settings
from slmcode.errors import RequestTooLargeError, SlmcodeError
from slmcode.providers.guard import request_tokens
from slmcode.providers.roles import RoleTable
from tests.fake_llm import FakeLLM, Reply
from tests.graph.scenario import add_bulk_code, script_buggy_worker_then_fix, script_planning

MODEL = "qwen2.5-coder:7b"  # its profile assumes 8,192 tokens


class TruncatingOllama(FakeLLM):
    """Answers /api/show with num_ctx, and keeps only the last num_ctx tokens of a longer request, silently."""

    def __init__(self, num_ctx: int) -> None:
        super().__init__(models=[MODEL])
        self.num_ctx = num_ctx
        self.ollama_num_ctx = {MODEL: num_ctx}
        self.cut: list[int] = []  # each cut request's size

    def answer(self, request: dict[str, Any]) -> tuple[int, Reply]:
        tokens = request_tokens(request)
        if tokens > self.num_ctx:
            self.cut.append(tokens)
            messages = list(request["messages"])
            while len(messages) > 1 and count_message_tokens(messages) > self.num_ctx:
                messages.pop(0)  # the front goes first: the system prompt, then the oldest turns
            request = {**request, "messages": messages}
        return super().answer(request)


def test_a_role_on_its_own_server_is_sized_to_that_servers_window_and_says_so_once() -> None:
    with FakeLLM(models=["qwen2.5-coder:32b"]) as theirs:
        theirs.get_routes["/props"] = {"default_generation_settings": {"n_ctx": 3072}, "total_slots": 1}
        table = RoleTable(
            Settings(
                model=MODEL,
                base_url="http://127.0.0.1:9/v1",
                context_limit=8192,
                roles={"reviewer": RoleModel(model="qwen2.5-coder:32b", base_url=theirs.url)},
            )
        )
        reviewer, worker = table["reviewer"], table["worker"]
    assert worker.budget.window == 8192 and reviewer.budget.window == 3072
    assert table.client("reviewer").prompt_limit == reviewer.budget.prompt_limit < worker.budget.prompt_limit
    (said,) = table.take_windows()
    assert said[0] == "reviewer" and said[1]["server"] == "llama.cpp" and said[1]["window"] == 3072
    assert table.take_windows() == []


def test_a_request_past_what_the_server_keeps_is_refused_before_it_is_sent() -> None:
    with TruncatingOllama(4096) as ollama:
        # The user's context_limit (8,192) is kept, with a warning, though the server keeps 4,096.
        table = RoleTable(Settings(model=MODEL, base_url=ollama.url, context_limit=8192, request_retries=0))
        assert table["worker"].budget.window == 8192
        client = table.client("worker")
        ollama.push(Reply(content="ok"))
        assert client.invoke([HumanMessage("a short question")]).content == "ok"
        with pytest.raises(RequestTooLargeError, match="the server would cut its front"):
            client.invoke([HumanMessage("word " * 5000)])
    assert len(ollama.requests) == 1 and ollama.cut == []


@pytest.mark.slow
def test_a_run_with_a_context_limit_past_the_servers_window_never_has_a_prompt_cut(repo: Path) -> None:
    with TruncatingOllama(2048) as ollama:  # an Ollama before 0.6 keeps 2,048 tokens by default
        # Enough code that the packs fill the 8,192-token budget: sent, such requests would lose their front.
        add_bulk_code(repo)
        script_planning(ollama)
        script_buggy_worker_then_fix(ollama)
        events: list[dict] = []
        try:
            result = api.run(
                "Add a divide operation",
                repo,
                base_url=ollama.url,
                model=MODEL,
                context_limit=8192,
                on_event=events.append,
                request_retries=0,
            )
            ended = result.outcome
        except SlmcodeError as exc:  # the run may end with the one clear line instead
            ended = str(exc)
            assert "the server would cut its front" in ended, ended
    # Sized to 8,192 tokens, the first request (clarify's, ~3,200 tokens) is already past what the server keeps:
    # the run ends with the line above instead of the server answering a prompt it cut.
    assert ollama.cut == [], f"{len(ollama.cut)} requests cut: {ollama.cut}"
    (window,) = [e for e in events if e["kind"] == "window"]
    assert window["warning"] and window["server_tokens"] == 2048
