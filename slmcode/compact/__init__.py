"""Compaction: the per-request view of a worker's conversation, the ladder, offload. `pre_model_hook` and
`make_pre_model_hook` are that view as a LangGraph pre-model hook (compact/hook.py), loaded on first use so
that importing one compaction module does not load the whole view."""

from __future__ import annotations

from typing import Any

__all__ = ["make_pre_model_hook", "pre_model_hook"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from slmcode.compact import hook

        return getattr(hook, name)
    raise AttributeError(f"module 'slmcode.compact' has no attribute {name!r}")
