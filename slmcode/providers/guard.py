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
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import LanguageModelInput
from langchain_core.language_models.chat_models import generate_from_stream
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatResult
from langchain_openai import ChatOpenAI
from pydantic import PrivateAttr

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


def broke_off(exc: openai.APIError) -> bool:
    """The server answered and closed the connection before the body's end (it died mid-stream)."""
    cause: BaseException | None = exc
    # By name: the openai client's HTTP library (httpx or its fork) raises it, under langchain-openai's wrapper.
    while cause is not None and type(cause).__name__ != "RemoteProtocolError":
        cause = cause.__cause__ or cause.__context__
    return isinstance(exc, openai.APIConnectionError) and cause is not None


class GuardedChat(ChatOpenAI):
    """ChatOpenAI that refuses an oversized request and names a broken answer."""

    role: str = ""
    prompt_limit: int | None = None
    server_limit: int | None = None  # what the server keeps of a prompt, when less than prompt_limit
    # Ask for the answer as a stream, so a caller's callbacks hear each token as it arrives (a call of a small
    # model on a CPU takes tens of seconds). Not `streaming`: ChatOpenAI would then stream outside this guard.
    stream_tokens: bool = False
    # A server whose stream carried no usage: its later answers come whole, since the prompt tokens the server
    # counted are how a run sees what the server kept (and the web view's counts).
    _stream_lacks_usage: bool = PrivateAttr(default=False)

    def _should_stream(self, **kwargs: Any) -> bool:
        return False  # every call goes through _generate below, which streams itself, inside the guard

    def _should_use_protocol_streaming(self, **kwargs: Any) -> bool:
        return False

    def _streams(self, **kwargs: Any) -> bool:
        """Whether this call streams: not with a response_format (the client's parse helper streams otherwise),
        not where the dialect says streaming breaks (llama-cpp-python with tools)."""
        if not self.stream_tokens or self._stream_lacks_usage or "response_format" in kwargs:
            return False
        return not self._streaming_disabled(**kwargs)

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

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        attempt = 0
        streaming = self._streams(**kwargs)
        while True:
            try:
                if streaming:
                    result = self._streamed(messages, stop, run_manager, **kwargs)
                else:
                    result = super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)
            except SlmcodeError:
                raise
            except openai.APIError as exc:
                if streaming and broke_off(exc) and attempt < (self.max_retries or 0):
                    streaming = False  # the server answered, then closed mid-body: as a cut answer, below
                    time.sleep(cut_retry_wait(attempt))
                    attempt += 1
                    continue
                if not isinstance(exc, openai.APIResponseValidationError):
                    raise translate(exc, self.role) from None  # the callers decide (retry, shrink, stop)
                raise self._unusable(exc) from None
            except UNUSABLE_ANSWER as exc:
                if (cut_answer(exc) or streaming) and attempt < (self.max_retries or 0):
                    # A stream that broke off is asked again whole: a cut body is then asked again as any cut
                    # answer is, and a page that is no answer at all is named by what it is.
                    streaming = False
                    time.sleep(cut_retry_wait(attempt))
                    attempt += 1
                    continue
                raise self._unusable(exc) from None
            if not result.generations:  # `choices: []`: langchain would fail later on an empty list
                raise self._unusable(ValueError("the answer has no choices"))
            return result

    def _streamed(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None,
        run_manager: CallbackManagerForLLMRun | None,
        **kwargs: Any,
    ) -> ChatResult:
        """The answer as a stream; each token reaches the callbacks as it arrives. One that ends before the server
        said why it stopped (a finish_reason) is cut."""
        chunks = list(self._stream(messages, stop=stop, run_manager=run_manager, stream_usage=True, **kwargs))
        if not any((chunk.generation_info or {}).get("finish_reason") for chunk in chunks):
            raise ValueError("the stream ended before the answer did")
        result = generate_from_stream(iter(chunks))
        message = result.generations[0].message if result.generations else None
        if isinstance(message, AIMessage) and message.usage_metadata is None:
            self._stream_lacks_usage = True
        return result

    def _unusable(self, exc: Exception) -> EndpointError:
        where = safe_url(str(self.openai_api_base or "the model server"))
        detail = str(exc).strip().splitlines()[0][:120] if str(exc).strip() else ""
        return EndpointError(
            f"the model server at {where} answered a {self.role or 'model'} request with something that is not a "
            f"chat completion ({type(exc).__name__}{': ' + detail if detail else ''})"
        )
