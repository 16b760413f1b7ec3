"""Model profiles: the context window and ReAct turn budget a model gets.

Each field is resolved on its own, first hit wins: exact model name -> family substring (longest first)
-> size bucket parsed from the name (7b, 1.5b, 135m, ...) -> default. Only the longest matching
family is consulted. Users extend or override the
table with the `model_profiles` setting, whose keys may be exact names or family substrings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from slmcode.budget.settings import BudgetSettings

DEFAULT_CONTEXT_LIMIT = 16384
DEFAULT_MAX_TURNS = 30
# Tokens the model's own tokenizer spends per cl100k token we count: budgets are divided by it, so a model
# whose tokenizer is less efficient than cl100k still gets requests that fit its window.
DEFAULT_TOKEN_FACTOR = 1.0

# Families whose window does not depend on their size. Families that ship in many sizes with the same
# nominal window (qwen2.5-coder, qwen3, llama3.x) fix only what their size does not tell: on a local
# machine the usable window of a 7B model is what its memory allows, so the size bucket decides.
BUILTIN_FAMILIES: dict[str, dict[str, float]] = {
    "qwen2.5-coder": {"max_turns": 30},
    "qwen3-coder": {"max_turns": 40},
    "qwen3": {"max_turns": 30},
    "qwen2.5": {"max_turns": 25},
    "llama3.1": {"max_turns": 25},
    "llama3.2": {"max_turns": 20},
    "llama3.3": {"max_turns": 30},
    "llama3": {"context_limit": 8192, "max_turns": 20},
    "deepseek-coder-v2": {"context_limit": 32768, "max_turns": 30},
    "deepseek-coder": {"context_limit": 16384, "max_turns": 20},
    "deepseek-r1": {"max_turns": 20},
    "codegemma": {"context_limit": 8192, "max_turns": 20},
    "gemma2": {"context_limit": 8192, "max_turns": 20},
    "gemma3": {"max_turns": 25},
    "codellama": {"context_limit": 16384, "max_turns": 20},
    "starcoder2": {"context_limit": 16384, "max_turns": 15},
    "phi3.5": {"context_limit": 8192, "max_turns": 20},
    "phi3": {"context_limit": 4096, "max_turns": 15},
    "phi4": {"context_limit": 16384, "max_turns": 25},
    # SmolLM2's tokenizer spends ~1.17-1.22 tokens per cl100k token on code (measured on the embedded server);
    # 1.35 also covers what the chat template adds per message and around tool results.
    "smollm2": {"context_limit": 8192, "max_turns": 10, "token_factor": 1.35},
    "granite-code": {"context_limit": 8192, "max_turns": 20},
    "mistral": {"context_limit": 32768, "max_turns": 25},
    "codestral": {"context_limit": 32768, "max_turns": 30},
}

BUILTIN_EXACT: dict[str, dict[str, float]] = {
    # The embedded default: llama.cpp serves the bundled SmolLM2-135M with a 2,048-token window.
    "embedded": {"context_limit": 2048, "max_turns": 6, "token_factor": 1.35},
    "smollm2:135m": {"context_limit": 2048, "max_turns": 6, "token_factor": 1.35},
}

# (upper bound in billions of parameters, context_limit, max_turns), smallest first.
SIZE_BUCKETS: tuple[tuple[float, int, int], ...] = (
    (0.6, 2048, 8),
    (1.6, 4096, 12),
    (4.0, 4096, 16),
    (9.0, 8192, 25),
    (15.0, 16384, 30),
    (35.0, 32768, 40),
    (float("inf"), 32768, 40),
)

_SIZE_RE = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*([bm])(?![a-z])", re.IGNORECASE)


@dataclass(frozen=True)
class ModelProfile:
    model: str
    context_limit: int
    max_turns: int
    context_source: str
    turns_source: str
    token_factor: float = DEFAULT_TOKEN_FACTOR
    edit_format: str = "auto"  # replace | whole | auto: how the worker changes a file (tools/editformat.py)


# Models up to this size (billions of parameters), or of unknown size with at most this window, get the
# `auto` edit format: an exact old_str is the edit format small models fail most.
SMALL_MODEL_BILLIONS = 15.0
SMALL_MODEL_WINDOW = 8192


def _edit_format(size: float | None, context: int, layers: list[tuple[str, dict]]) -> str:
    """A profile's (the user's model_profiles) first, else auto for small models and replace for large ones."""
    chosen = next((layer["edit_format"] for _, layer in layers if layer.get("edit_format")), None)
    if chosen:
        return str(chosen)
    small = size <= SMALL_MODEL_BILLIONS if size is not None else context <= SMALL_MODEL_WINDOW
    return "auto" if small else "replace"


def parse_size_billions(model: str) -> float | None:
    """'qwen2.5-coder:7b' -> 7.0, 'smollm2-135m' -> 0.135; the last size token in the name wins."""
    matches = _SIZE_RE.findall(model)
    if not matches:
        return None
    number, unit = matches[-1]
    return float(number) / (1000.0 if unit.lower() == "m" else 1.0)


def _bucket(size: float) -> tuple[int, int, str]:
    for upper, context, turns in SIZE_BUCKETS:
        if size <= upper:
            label = f"{size:g}b" if size >= 1 else f"{size * 1000:g}m"
            return context, turns, f"size bucket {label}"
    raise AssertionError("the last bucket is unbounded")


def resolve_profile(model: str, settings: BudgetSettings | None = None) -> ModelProfile:
    """Resolve context_limit and max_turns for `model`; settings.context_limit, when set, wins for the window."""
    name = model.lower()
    user_profiles = settings.model_profiles if settings else {}
    overrides = {k.lower(): v.model_dump(exclude_none=True) for k, v in user_profiles.items()}
    exact = {**BUILTIN_EXACT, **overrides}
    families = {**BUILTIN_FAMILIES, **overrides}
    layers: list[tuple[str, dict[str, float]]] = []
    if name in exact:
        layers.append((f"profile '{name}'", exact[name]))
    # Only the most specific family counts: "llama3" must not speak for "llama3.2".
    family = next((f for f in sorted(families, key=lambda f: (-len(f), f)) if f != name and f in name), None)
    if family is not None:
        layers.append((f"family '{family}'", families[family]))
    size = parse_size_billions(name)
    if size is not None:
        context, turns, label = _bucket(size)
        layers.append((label, {"context_limit": context, "max_turns": turns}))
    layers.append(
        (
            "default",
            {  # the token factor is a float beside the two counts
                "context_limit": DEFAULT_CONTEXT_LIMIT,
                "max_turns": DEFAULT_MAX_TURNS,
                "token_factor": DEFAULT_TOKEN_FACTOR,
            },
        )
    )

    def pick(field: str) -> tuple[Any, str]:
        return next((layer[field], source) for source, layer in layers if field in layer)

    context, context_source = pick("context_limit")
    if settings is not None and settings.context_limit is not None:
        context, context_source = settings.context_limit, "setting context_limit"
    turns, turns_source = pick("max_turns")
    return ModelProfile(
        model,
        int(context),
        int(turns),
        context_source,
        turns_source,
        pick("token_factor")[0],
        _edit_format(size, int(context), layers),
    )
