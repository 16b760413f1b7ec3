"""The pre-model hook as public API, in LangGraph's own convention: `create_react_agent(model, tools,
pre_model_hook=make_pre_model_hook(settings, window))` sends each request through the same per-request view a
slmcode worker's request goes through (request_view: live elision, dropped rounds behind the digest, the
ladder's deterministic rungs), and the graph's stored messages stay whole.

The hook returns `{"llm_input_messages": ...}`: LangGraph sends those to the model and keeps the state as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from slmcode.budget.profiles import resolve_profile
from slmcode.budget.room import limits_for
from slmcode.compact.request_view import request_view
from slmcode.compact.settings import CompactSettings
from slmcode.settings import Settings

PreModelHook = Callable[[Mapping[str, Any]], dict[str, Any]]


def make_pre_model_hook(settings: CompactSettings, window: int) -> PreModelHook:
    """A hook that fits each request to a model with a `window`-token context, as a worker's request is fitted."""
    limits = limits_for(settings, window)

    def hook(state: Mapping[str, Any]) -> dict[str, Any]:
        view = request_view(state["messages"], settings=settings, limits=limits)
        return {"llm_input_messages": view.messages}

    return hook


def pre_model_hook(state: Mapping[str, Any]) -> dict[str, Any]:
    """The hook with the default settings, on the window the default model's profile assumes."""
    settings = Settings()
    return make_pre_model_hook(settings, resolve_profile(settings.model, settings).context_limit)(state)
