"""The HTTP client's errors in the project's words. Nothing above providers/ knows the `openai` package: a
request that failed arrives as one of slmcode.errors' EndpointErrors, each with what its caller decides on
(a status, the server's message, how long a rate limit asks to wait, whether the request was too long)."""

from __future__ import annotations

import json

import openai

from slmcode.errors import (
    EndpointError,
    RateLimitedError,
    ServerRefusedError,
    ServerStatusError,
    ServerUnreachableError,
)

CUT_RETRY_WAIT_CAP = 4.0  # seconds between tries of a cut answer: 0.5, 1, 2, 4 ...


def translate(exc: openai.APIError, role: str) -> EndpointError:
    """The project's error for a failed request of `role` (the client's own retries already spent)."""
    who = role or "model"
    if isinstance(exc, openai.APITimeoutError):
        return ServerUnreachableError(
            f"the model did not answer a {who} request within request_timeout (with "
            "retries): too slow on this machine now; raise request_timeout or use a faster "
            "model",
            detail=str(exc),
            timed_out=True,
        )
    if isinstance(exc, openai.APIConnectionError):
        return ServerUnreachableError(f"model server unreachable during a {who} request: {exc}", detail=str(exc))
    if isinstance(exc, openai.RateLimitError):
        return RateLimitedError(
            f"the model server rate-limited a {who} request ({exc.status_code}): {exc.message}",
            status_code=exc.status_code,
            detail=exc.message,
            retry_after=_retry_after(exc),
        )
    if isinstance(exc, openai.BadRequestError):
        return ServerRefusedError(
            f"the model server refused a {who} request: {exc.message}", status_code=exc.status_code, detail=exc.message
        )
    if isinstance(exc, openai.APIStatusError):
        return ServerStatusError(
            f"the model server failed a {who} request ({exc.status_code}): {exc.message}",
            status_code=exc.status_code,
            detail=exc.message,
        )
    return EndpointError(f"the model server failed a {who} request: {exc.__class__.__name__}: {exc}")


def _retry_after(exc: openai.RateLimitError) -> float | None:
    header = exc.response.headers.get("retry-after", "") if exc.response is not None else ""
    try:
        return float(header)
    except ValueError:
        return None


def cut_answer(exc: BaseException) -> bool:
    """A 200 whose JSON body stops early (a proxy, a server dying mid-write): the next try may well be whole,
    unlike an HTML page or an empty body, which the same server sends again."""
    if not isinstance(exc, json.JSONDecodeError):
        return False
    return exc.doc.lstrip().startswith("{") and not exc.msg.startswith("Extra data")


def cut_retry_wait(attempt: int) -> float:
    return min(0.5 * 2**attempt, CUT_RETRY_WAIT_CAP)
