"""What `slmcode doctor` asks a model server: is it there, which models it serves, and, for Ollama, the
context window it will really use (a silent 2,048-token num_ctx is the classic small-model failure)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import httpx

from slmcode.errors import EndpointError
from slmcode.redact import safe_url

# Ollama's window before 0.6 when neither the Modelfile nor the request sets num_ctx (4,096 since: server_window.py).
OLLAMA_DEFAULT_NUM_CTX = 2048
_NUM_CTX = re.compile(r"^\s*num_ctx\s+(\d+)", re.MULTILINE)


@dataclass(frozen=True)
class EndpointInfo:
    base_url: str
    models: list[str]
    server: str  # "ollama" or "openai-compatible"


CONNECT_TIMEOUT = 1.0  # a refused or unroutable server answers within this on loopback and a LAN
START_HINT = "is it started? (Ollama: `ollama serve`; llama.cpp: `llama-server`) and is --base-url right?"


def unreachable(base_url: str, exc: Exception) -> EndpointError:
    """The one line a user gets when nothing answers at `base_url`: where, why, and what to try."""
    reason = "connection refused" if isinstance(exc, httpx.ConnectError) else exc.__class__.__name__
    return EndpointError(f"the model server at {safe_url(base_url)} is unreachable ({reason}): {START_HINT}")


def require_reachable(base_url: str, api_key: str) -> None:
    """Fail before a run starts when nothing listens at `base_url`; any answer at all (even an error status)
    means a server is there, and the run's own requests report what is wrong with it."""
    try:
        httpx.get(
            base_url.rstrip("/") + "/models",
            headers={"Authorization": f"Bearer {api_key}"},
            timeout=httpx.Timeout(10.0, connect=CONNECT_TIMEOUT),
        )
    except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
        raise unreachable(base_url, exc) from None
    except httpx.HTTPError:
        return


def _root(base_url: str) -> str:
    return re.sub(r"/v1/?$", "", base_url.rstrip("/"))


def probe_endpoint(base_url: str, api_key: str, timeout: float = 5.0) -> EndpointInfo:
    """GET /models; any failure to reach or parse it is one EndpointError line."""
    url = base_url.rstrip("/") + "/models"
    try:
        response = httpx.get(
            url, headers={"Authorization": f"Bearer {api_key}"}, timeout=httpx.Timeout(timeout, connect=CONNECT_TIMEOUT)
        )
    except httpx.HTTPError as exc:
        raise unreachable(base_url, exc) from None
    if response.status_code != 200:
        raise EndpointError(f"{url} answered HTTP {response.status_code}; is {base_url} an OpenAI-compatible /v1?")
    try:
        models = sorted(str(m["id"]) for m in response.json().get("data", []))
    except (ValueError, KeyError, TypeError, AttributeError):
        raise EndpointError(f"{url} did not answer with a model list; is it an OpenAI-compatible server?") from None
    return EndpointInfo(base_url=base_url, models=models, server=_server_kind(base_url, timeout))


def _server_kind(base_url: str, timeout: float) -> str:
    try:
        response = httpx.get(_root(base_url) + "/api/version", timeout=timeout)
    except httpx.HTTPError:
        return "openai-compatible"
    return "ollama" if response.status_code == 200 and "version" in response.text else "openai-compatible"
