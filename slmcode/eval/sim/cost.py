"""What a SIMULATED attempt costs the server that plays the model, and what a solved task costs: per request the
prompt tokens sent, the ones the server had to read (prefill) and the answer tokens it wrote; summed per attempt,
with the wall time those take on the profile's CPU server (mind.prefill_tokens_per_s, decode_tokens_per_s).

The server keeps each conversation's last prompt in its KV cache (llama.cpp's prompt cache, one slot per
conversation): a request reads only the tokens past the common prefix with the previous request of the same
conversation. So a stable prefix (system prompt, tool schemas, earlier turns of a loop that only appends) is read
once, and a prompt changed near its top (other tools offered, an elided result, a rewritten pack) is read again
from where it first differs. A conversation is known by its opening: the system messages and the first other
message, as the client sent them. Tokens are chars / 4, as the simulated server counts them (window.py)."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from typing import Any

from slmcode.eval.scripted import Reply
from slmcode.eval.sim.mind import Mind
from slmcode.eval.sim.shown import Request, content_text
from slmcode.eval.sim.window import CHARS_PER_TOKEN

SYSTEM_ROLES = ("system", "developer")
FIGURES = ("requests", "prompt_tokens", "read_tokens", "answer_tokens")


def _message(message: dict[str, Any]) -> str:
    calls = json.dumps(message.get("tool_calls") or [], sort_keys=True)
    return f"<{message.get('role')}>{content_text(message.get('content'))}{calls}"


def rendered(request: Request) -> str:
    """The prompt as a chat template lays it out (Qwen's: the system text, then the tool schemas, then the other
    messages in order)."""
    messages = request.get("messages") or []
    system = [_message(m) for m in messages if m.get("role") in SYSTEM_ROLES]
    rest = [_message(m) for m in messages if m.get("role") not in SYSTEM_ROLES]
    return "\n".join([*system, json.dumps(request.get("tools") or [], sort_keys=True), *rest])


def conversation(request: Request) -> str:
    """The conversation a request belongs to: its system messages and first other message."""
    messages = request.get("messages") or []
    system = [_message(m) for m in messages if m.get("role") in SYSTEM_ROLES]
    first = next((_message(m) for m in messages if m.get("role") not in SYSTEM_ROLES), "")
    return "\n".join([*system, first])


def common_prefix(a: str, b: str) -> int:
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    low, high = 0, n  # by halving: prompts run to tens of thousands of characters
    while low < high:
        mid = (low + high + 1) // 2
        if a[:mid] == b[:mid]:
            low = mid
        else:
            high = mid - 1
    return low


@dataclass
class Cost:
    requests: int = 0
    prompt_tokens: int = 0  # every prompt token sent
    read_tokens: int = 0  # of those, the ones past the cached prefix: what the server read (prefill)
    answer_tokens: int = 0

    def as_dict(self, mind: Mind) -> dict[str, Any]:
        """The figures, and the seconds they take on the profile's CPU server (None when it gives no rates)."""
        return {
            "requests": self.requests,
            "prompt_tokens": self.prompt_tokens,
            "read_tokens": self.read_tokens,
            "answer_tokens": self.answer_tokens,
            "cpu_seconds": mind.seconds(self.read_tokens, self.answer_tokens),
        }


class Meter:
    """One simulated server's running cost; `add` is called once per answered request (threads may overlap)."""

    def __init__(self) -> None:
        self.cost = Cost()
        self._last: dict[str, str] = {}  # each conversation's last prompt, as the server's cache holds it
        self._lock = threading.Lock()

    def add(self, sent: Request, kept: Request, reply: Reply) -> None:
        """`sent` as the client sent it (it names the conversation), `kept` as the server's window kept it."""
        key, text = conversation(sent), rendered(kept)
        answer = len(reply.content) + (len(json.dumps(reply.tool_calls)) if reply.tool_calls else 0)
        with self._lock:
            cached = common_prefix(self._last.get(key, ""), text)
            self._last[key] = text
            self.cost.requests += 1
            self.cost.prompt_tokens += len(text) // CHARS_PER_TOKEN
            self.cost.read_tokens += (len(text) - cached) // CHARS_PER_TOKEN
            self.cost.answer_tokens += answer // CHARS_PER_TOKEN + 1


def rates(mind: Mind) -> list[float]:
    return [mind.prefill_tokens_per_s, mind.decode_tokens_per_s]


def attempt_cost(parts: list[tuple[Cost, Mind]]) -> dict[str, Any]:
    """One attempt's cost summed over its servers (a fallback model has its own), each's seconds at its own
    rates; `rates` are the first (the attempt's own model's)."""
    figures = [cost.as_dict(mind) for cost, mind in parts]
    total: dict[str, Any] = {key: sum(f[key] for f in figures) for key in FIGURES}
    seconds = [f["cpu_seconds"] for f in figures]
    total["cpu_seconds"] = None if None in seconds else sum(seconds)
    total["rates"] = rates(parts[0][1])
    return total


def per_solve(solved: int, costs: list[dict[str, Any]]) -> dict[str, Any]:
    """A cell's cost over all its attempts, failed ones too, per solved task. With no solve there is no figure
    (None, and `solved` 0 says why); CPU minutes are None too when a profile gives no rates."""
    figures: dict[str, Any] = {"solved": solved, "rates": costs[0]["rates"] if costs else None}
    if not solved or not costs:
        return figures | dict.fromkeys((*FIGURES, "cpu_minutes"))
    figures |= {key: sum(c[key] for c in costs) / solved for key in FIGURES}
    seconds = [c["cpu_seconds"] for c in costs]
    figures["cpu_minutes"] = None if None in seconds else sum(seconds) / solved / 60
    return figures


HEADER = ("cell", "solved", "requests", "prompt tok", "read tok", "answer tok", "CPU min")


def _figure(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:,.0f}" if value >= 100 else f"{value:.1f}"


def cost_block(summary: dict[str, dict[str, Any]]) -> list[str]:
    """Per cell, what a solved task cost its server: requests, prompt tokens sent and read past the cache, answer
    tokens, and the minutes those take at the profile's CPU rates ('-': no solve, or no rates)."""
    rows: list[tuple[str, ...]] = [HEADER]
    at = "no CPU rates in the profile"
    for name, figures in summary.items():
        cost = figures.get("per_solve") or {}
        if all(cost.get("rates") or (0,)):
            at = "{:g} prompt / {:g} answer tokens per s".format(*cost["rates"])
        solved = str(figures["solved"]) if figures["solved"] else "0 (no figure)"
        rows.append((name, solved, *(_figure(cost.get(k)) for k in (*FIGURES, "cpu_minutes"))))
    widths = [max(len(r[i]) for r in rows) for i in range(len(HEADER))]
    lines = [
        "SIMULATED cost per solved task: all attempts' cost / solves; a prefix the server's cache holds is read once;",
        f"CPU minutes at the profile's {at}",
    ]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    return lines
