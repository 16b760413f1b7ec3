"""What a model server will really keep of a request: its window, asked at run start. A server keeps fewer tokens
than the model profile assumes as often as not (Ollama keeps 4,096 unless told otherwise, whatever the model
can do) and drops the front of a longer prompt silently, with HTTP 200: the system prompt and the tool schemas
go first. One probe per server kind; each answers None when its server does not answer as that kind does.

All the probes together have one deadline: a read timeout alone does not bound a server that answers one byte
at a time (each read gets a byte), nor four probes that each hang. They run on a thread the run's start waits
for until the deadline, saying so once it has waited a moment; a probe reading past the deadline stops."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx

from slmcode.budget.profiles import resolve_profile
from slmcode.providers.endpoint import _NUM_CTX, OLLAMA_DEFAULT_NUM_CTX, _root
from slmcode.providers.settings import ProviderSettings

PROBE_TIMEOUT = httpx.Timeout(2.0, connect=1.0)  # one read or connect: a server that hangs costs seconds
PROBE_DEADLINE = 5.0  # seconds for all the probes together: a local server answers them in milliseconds
WAIT_NOTICE = 1.0  # seconds of waiting before the run says what it waits for
MAX_ANSWER = 1 << 20  # bytes: a window is a few hundred bytes of JSON; a listing of many models a few kB


@dataclass(frozen=True)
class ServerWindow:
    server: str  # ollama | llama.cpp | vllm | lm-studio | unknown
    tokens: int | None  # None: the server did not say
    gave_up: bool = False  # the probes ran out of time: the server may keep a window it did not get to say


def _fetch(url: str, api_key: str, deadline: float, body: dict[str, Any] | None = None) -> Any:
    """The JSON at `url` (POSTed `body`, else a GET), or None for any failure: no answer, an error status, not
    JSON, or still coming at `deadline` (time.monotonic)."""
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        return None
    timeout = httpx.Timeout(min(PROBE_TIMEOUT.read or remaining, remaining), connect=min(1.0, remaining))
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    try:
        with httpx.stream("POST" if body else "GET", url, headers=headers, json=body, timeout=timeout) as response:
            if response.status_code != 200:
                return None
            data = bytearray()
            for chunk in response.iter_bytes():
                data += chunk
                if time.monotonic() > deadline or len(data) > MAX_ANSWER:
                    return None
            return json.loads(bytes(data))
    except (httpx.HTTPError, ValueError):
        return None


def _get(url: str, api_key: str, deadline: float | None = None) -> Any:
    return _fetch(url, api_key, time.monotonic() + PROBE_DEADLINE if deadline is None else deadline)


def _positive(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def probe_ollama(base_url: str, model: str, api_key: str, deadline: float | None = None) -> int | None:
    """Ollama: the model's num_ctx (its Modelfile parameter, else Ollama's default for its version: 2,048 before
    0.6, 4,096 since). Its OpenAI endpoint ignores a request's num_ctx, so this is what every request gets."""
    deadline = time.monotonic() + PROBE_DEADLINE if deadline is None else deadline
    version = _fetch(_root(base_url) + "/api/version", api_key, deadline)
    if not isinstance(version, dict) or "version" not in version:
        return None
    shown = _fetch(_root(base_url) + "/api/show", api_key, deadline, {"model": model})
    if not isinstance(shown, dict):
        return None
    match = _NUM_CTX.search(str(shown.get("parameters") or ""))
    return int(match.group(1)) if match else _ollama_default(str(version["version"]))


def _ollama_default(version: str) -> int:
    numbers = [int(n) for n in re.findall(r"\d+", version)[:2]] + [0, 0]
    return OLLAMA_DEFAULT_NUM_CTX if (numbers[0], numbers[1]) < (0, 6) else 4096


def probe_llama_cpp(base_url: str, model: str, api_key: str, deadline: float | None = None) -> int | None:
    """llama.cpp's server: /props, the context of one slot (n_ctx is split between its parallel slots)."""
    props = _get(_root(base_url) + "/props", api_key, deadline)
    if not isinstance(props, dict):
        return None
    generation = props.get("default_generation_settings")
    return _positive(generation.get("n_ctx")) if isinstance(generation, dict) else None


def probe_lm_studio(base_url: str, model: str, api_key: str, deadline: float | None = None) -> int | None:
    """LM Studio: /api/v0/models, the loaded context length of the model (its maximum if not loaded yet)."""
    listing = _get(_root(base_url) + "/api/v0/models", api_key, deadline)
    entry = _entry(listing, model)
    if entry is None:
        return None
    return _positive(entry.get("loaded_context_length")) or _positive(entry.get("max_context_length"))


def probe_vllm(base_url: str, model: str, api_key: str, deadline: float | None = None) -> int | None:
    """vLLM: /v1/models lists each model's max_model_len."""
    entry = _entry(_get(base_url.rstrip("/") + "/models", api_key, deadline), model)
    return _positive(entry.get("max_model_len")) if entry is not None else None


def _entry(listing: Any, model: str) -> dict[str, Any] | None:
    """The model's entry in a {"data": [...]} listing; the only entry when the server serves one model."""
    data = listing.get("data") if isinstance(listing, dict) else None
    entries = [e for e in data if isinstance(e, dict)] if isinstance(data, list) else []
    named = [e for e in entries if e.get("id") == model]
    if named:
        return named[0]
    return entries[0] if len(entries) == 1 else None


PROBES: list[tuple[str, Callable[[str, str, str, float], int | None]]] = [
    ("ollama", probe_ollama),
    ("llama.cpp", probe_llama_cpp),
    ("lm-studio", probe_lm_studio),
    ("vllm", probe_vllm),
]


def _first_answer(base_url: str, model: str, api_key: str, deadline: float) -> ServerWindow:
    for server, probe in PROBES:
        tokens = probe(base_url, model, api_key, deadline)
        if tokens is not None:
            return ServerWindow(server, tokens)
    return ServerWindow("unknown", None, gave_up=time.monotonic() >= deadline)


def server_window(
    base_url: str, model: str, api_key: str = "", *, waiting: Callable[[str], None] | None = None
) -> ServerWindow:
    """The first server kind that answers with a window; `unknown` when none does, or none by the deadline.
    `waiting` is told, once, when the answer is slow to come."""
    deadline = time.monotonic() + PROBE_DEADLINE
    found: list[ServerWindow] = []
    asking = threading.Thread(
        target=lambda: found.append(_first_answer(base_url, model, api_key, deadline)), name="window-probe", daemon=True
    )
    asking.start()
    asking.join(WAIT_NOTICE)
    if asking.is_alive() and waiting is not None:
        waiting(f"asking {_root(base_url)} which window it keeps (at most {PROBE_DEADLINE:g} s)")
    asking.join(max(0.0, deadline - time.monotonic()))
    return found[0] if found else ServerWindow("unknown", None, gave_up=True)


def choose_window(
    settings: ProviderSettings, waiting: Callable[[str], None] | None = None
) -> tuple[int | None, dict[str, Any]]:
    """The run's context_limit sized to what the server will really keep, and the `window` event that says which
    window the run uses and why. A server that keeps less than the model profile assumes sizes the budget to its
    window (as `context_limit` would); a context_limit the user set is kept, with a warning when the server keeps
    less. The embedded model's server is started with the profile's window, so it is not asked. `waiting`: told
    when the server is slow to say."""
    profile = resolve_profile(settings.model, settings)
    kept = settings.context_limit
    if not settings.base_url or settings.server_dialect == "llama-cpp-python":
        return kept, _window_event("embedded", None, profile.context_limit, "the embedded model's window")
    found = server_window(settings.base_url, settings.model, settings.api_key, waiting=waiting)
    if found.tokens is None:
        said = f"within {PROBE_DEADLINE:g} s (gave up asking)" if found.gave_up else ""
        return kept, _window_event(
            found.server,
            None,
            profile.context_limit,
            " ".join(("the server did not say its window", said)).strip() + f"; {profile.context_source} assumed",
            warning=found.gave_up,
        )
    if kept is not None and kept > found.tokens:
        return kept, _window_event(
            found.server,
            found.tokens,
            kept,
            f"warning: context_limit {kept} is larger than the {found.tokens} tokens the "
            "server keeps; it will cut the front of long prompts",
            warning=True,
        )
    if kept is None and found.tokens < profile.context_limit:
        return found.tokens, _window_event(
            found.server,
            found.tokens,
            found.tokens,
            f"less than the {profile.context_limit} of {profile.context_source}; "
            "requests are sized to the server's window",
        )
    return kept, _window_event(found.server, found.tokens, profile.context_limit, profile.context_source)


def _window_event(
    server: str, server_tokens: int | None, used: int, reason: str, *, warning: bool = False
) -> dict[str, Any]:
    said = f"{server} keeps {server_tokens}" if server_tokens is not None else f"{server} server"
    return {
        "kind": "window",
        "server": server,
        "server_tokens": server_tokens,
        "window": used,
        "warning": warning,
        "message": f"window {used} tokens ({said}): {reason}",
    }
