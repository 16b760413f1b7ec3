"""The last gate before a request leaves, and the first after an answer comes back.

Out: a request over the role's prompt limit (the window less the response reserve) never reaches the
server: the packs and the compaction ladder are built to fit, so one that does not is a defect, stopped
here with its size instead of being truncated silently by a server or sent with its prompt cut.

In: an answer that is not an OpenAI chat completion (an HTML page with status 200, `choices: []`, a stream
nobody asked for, an empty body) is the server's fault, not the model's: one EndpointError line naming
the server, and the run keeps its last checkpoint for `slmcode resume`. A completion whose body was cut is
asked again, up to request_retries times, as the client retries a 429, a 5xx or a timeout. The client's
errors leave as the project's own (providers.failures).
"""

from __future__ import annotations

import json
import time
from typing import Any

import openai
from langchain_core.language_models import LanguageModelInput
from langchain_openai import ChatOpenAI

from slmcode.budget.tokens import count_message_tokens, count_tokens
from slmcode.errors import EndpointError, RequestTooLargeError, SlmcodeError
from slmcode.providers.failures import cut_answer, cut_retry_wait, translate
from slmcode.redact import safe_url

# What the openai client and langchain raise when a 200 answer is not a chat completion.
UNUSABLE_ANSWER = (
    openai.APIResponseValidationError,
    json.JSONDecodeError,
    ValueError,
    KeyError,
    IndexError,
    TypeError,
    AttributeError,
)


def request_tokens(payload: dict[str, Any]) -> int:
    """The prompt tokens of a request payload as the budget counts them (packs.tokens.count_message_tokens:
    every message's text and tool calls, the per-message overhead), and the tool schemas. The same count the
    compaction fits a request to: counting tool calls as their escaped JSON, ids and all, found 1,083 tokens
    in a worker request the hook had fitted to 1,066, and stopped the embedded demo on every run."""
    total = count_message_tokens(payload.get("messages", []))
    if payload.get("tools"):
        total += count_tokens(json.dumps(payload["tools"], sort_keys=True))
    return total


class GuardedChat(ChatOpenAI):
    """ChatOpenAI that refuses an oversized request and names a broken answer."""

    role: str = ""
    prompt_limit: int | None = None
    server_limit: int | None = None  # what the server keeps of a prompt, when less than prompt_limit

    def _get_request_payload(
        self, input_: LanguageModelInput, *, stop: list[str] | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        payload = super()._get_request_payload(input_, stop=stop, **kwargs)
        if self.server_limit is not None and (tokens := request_tokens(payload)) > self.server_limit:
            # The user's context_limit is past the server's window: sent, the prompt would lose its front silently.
            raise RequestTooLargeError(
                f"a {self.role or 'model'} request of {tokens} tokens is more than the {self.server_limit} prompt "
                f"tokens the server at {safe_url(str(self.openai_api_base or ''))} keeps for '{self.model_name}': "
                "not sent (the server would cut its front); raise the server's window (Ollama: num_ctx) or lower "
                "context_limit"
            )
        if self.prompt_limit is not None:
            tokens = request_tokens(payload)
            if tokens > self.prompt_limit:
                raise RequestTooLargeError(
                    f"a {self.role or 'model'} request of {tokens} tokens exceeds the prompt limit of "
                    f"{self.prompt_limit} for model '{self.model_name}': not sent (a budget defect; please report it)"
                )
        return payload

    def _generate(self, *args: Any, **kwargs: Any) -> Any:
        attempt = 0
        while True:
            try:
                result = super()._generate(*args, **kwargs)
            except SlmcodeError:
                raise
            except openai.APIError as exc:
                if not isinstance(exc, openai.APIResponseValidationError):
                    raise translate(exc, self.role) from None  # the callers decide (retry, shrink, stop)
                raise self._unusable(exc) from None
            except UNUSABLE_ANSWER as exc:
                if cut_answer(exc) and attempt < (self.max_retries or 0):
                    time.sleep(cut_retry_wait(attempt))
                    attempt += 1
                    continue
                raise self._unusable(exc) from None
            if not result.generations:  # `choices: []`: langchain would fail later on an empty list
                raise self._unusable(ValueError("the answer has no choices"))
            return result

    def _unusable(self, exc: Exception) -> EndpointError:
        where = safe_url(str(self.openai_api_base or "the model server"))
        detail = str(exc).strip().splitlines()[0][:120] if str(exc).strip() else ""
        return EndpointError(
            f"the model server at {where} answered a {self.role or 'model'} request with something that is not a "
            f"chat completion ({type(exc).__name__}{': ' + detail if detail else ''})"
        )
