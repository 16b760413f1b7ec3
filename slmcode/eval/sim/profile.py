"""A simulated model's profile: how often it makes each kind of error, how its errors grow with the prompt, the
window its server really keeps, and the name it is served under. Built-ins live in sim/profiles/*.yaml (each
rate documented there with its source); a user passes a path to a YAML file of the same shape."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from slmcode.errors import SlmcodeError
from slmcode.eval.sim.mind import Mind, load_mind

PROFILE_DIR = Path(__file__).resolve().parent / "profiles"
# Every error the simulator can make; a profile's `rates` gives each a probability per chance to make it.
ERRORS = (
    "text_call",  # the tool call written as text (bare JSON or <tool_call> tags), no structured call
    "malformed_args",  # the call's arguments are not valid JSON
    "wrong_path",  # a path that does not exist
    "old_str_mismatch",  # an edit's old_str that does not match (indentation drift, a line recalled wrongly)
    "drop_code_rewrite",  # the whole file rewritten, dropping code it did not mean to change
    "repeat_after_error",  # the same call again after it failed
    "stop_without_edit",  # stops before any edit, saying it is done
    "claim_tests_pass",  # says the tests pass without running them
    "schema_error",  # a planner/splitter/reviewer/... answer that does not fit its schema
    "malformed_block",  # an edit block in a text answer (the aider-like peer's) that does not parse
    "malformed_diff",  # a search/replace block (the aider-like peer's diff format) whose SEARCH is not in the file
    "malformed_diff_again",  # the same, in the answer to being told its last blocks failed (a reflection)
)


@dataclass(frozen=True)
class Profile:
    name: str
    model: str  # the name the server serves; the harness sizes its budget by it
    window_tokens: int  # what the server keeps; the front of a longer request is dropped (0: no limit)
    ollama: bool = False  # answer Ollama's /api/show (num_ctx unset), as a stock Ollama install does
    growth_per_1k: float = 0.0  # each rate is multiplied by 1 + growth_per_1k per 1,000 prompt tokens
    rates: dict[str, float] = field(default_factory=dict)
    mind: Mind = field(default_factory=Mind)  # its competence: belief, flips, stuck states, reviewer (mind.py)

    def rate(self, error: str, prompt_tokens: int) -> float:
        base = self.rates.get(error, 0.0)
        return min(1.0, base * (1.0 + self.growth_per_1k * prompt_tokens / 1000))


def builtin_profiles() -> list[str]:
    return sorted(p.stem for p in PROFILE_DIR.glob("*.yaml"))


def _rates(raw: object, where: str) -> dict[str, float]:
    if not isinstance(raw, dict):
        raise SlmcodeError(f"sim profile {where}: `rates` must be a mapping of error -> probability")
    rates = {}
    for key, value in raw.items():
        if key not in ERRORS:
            raise SlmcodeError(f"sim profile {where}: unknown error '{key}' (known: {', '.join(ERRORS)})")
        if not isinstance(value, int | float) or not 0 <= value <= 1:
            raise SlmcodeError(f"sim profile {where}: rate '{key}' must be a number from 0 to 1, got {value!r}")
        rates[key] = float(value)
    return rates


def load_profile(name_or_path: str) -> Profile:
    """A built-in profile by name, or a YAML file by path."""
    path = PROFILE_DIR / f"{name_or_path}.yaml"
    if not path.is_file():
        path = Path(name_or_path)
    if not path.is_file():
        raise SlmcodeError(
            f"no sim profile '{name_or_path}': give a built-in ({', '.join(builtin_profiles())}) "
            "or a path to a YAML profile"
        )
    try:
        data = yaml.safe_load(path.read_text()) or {}
    except yaml.YAMLError as exc:
        raise SlmcodeError(f"sim profile {path}: not valid YAML ({exc.__class__.__name__})") from None
    if not isinstance(data, dict):
        raise SlmcodeError(f"sim profile {path}: expected a mapping")
    try:
        return Profile(
            name=str(data.get("name") or path.stem),
            model=str(data.get("model") or f"sim-{path.stem}"),
            window_tokens=int(data.get("window_tokens") or 0),
            ollama=bool(data.get("ollama", False)),
            growth_per_1k=float(data.get("growth_per_1k") or 0.0),
            rates=_rates(data.get("rates") or {}, str(path)),
            mind=load_mind(data.get("mind"), str(path)),
        )
    except (TypeError, ValueError) as exc:
        raise SlmcodeError(f"sim profile {path}: {exc}") from None
