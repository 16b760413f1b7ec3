"""The SIMULATED SWE-bench table in the SWE-Gym paper's terms (its Table 3): per profile and cell, the resolve
rate, the empty-patch rate (attempts that changed no file) and the stuck-in-loop rate (attempts that repeated
one action, the same call with the same arguments, LOOP_REPEATS times in a row), each with its 95% interval,
and prompt tokens per resolved instance. SWE-Gym counts a loop only when the last three turns repeat; a repeat
the harness's loop guard broke off is counted here too, since the model was stuck all the same. Plain text, so
the same table goes to the terminal and to docs/bench."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from slmcode.eval.sim.compare import Outcome
from slmcode.eval.sim.stats import wilson
from slmcode.eval.taxonomy import LOOP_REPEATS

HEADER = ("cell", "n", "resolved [95% CI]", "empty patch [95% CI]", "stuck in loop [95% CI]", "prompt tok / resolved")


def _rate(count: int, n: int) -> dict[str, float]:
    low, high = wilson(count, n)
    return {"count": count, "rate": count / n if n else 0.0, "low": low, "high": high}


def stuck(outcome: Outcome) -> bool:
    return int(outcome.attempt.signals.get("longest_repeat", 0)) >= LOOP_REPEATS


def figures(rows: Sequence[Outcome]) -> dict[str, Any]:
    n = len(rows)
    resolved = sum(o.attempt.solved for o in rows)
    tokens = sum(o.attempt.prompt_tokens for o in rows)
    return {
        "n": n,
        "resolved": _rate(resolved, n),
        "empty_patch": _rate(sum(not o.attempt.files_changed for o in rows), n),
        "stuck_in_loop": _rate(sum(stuck(o) for o in rows), n),
        "prompt_tokens_per_resolved": tokens / resolved if resolved else None,
    }


def swe_summary(outcomes: Sequence[Outcome], profile: str) -> dict[str, dict[str, Any]]:
    """cell name -> figures, in the grid's order."""
    cells = dict.fromkeys(o.cell for o in outcomes if o.profile == profile)
    return {c.name: figures([o for o in outcomes if o.profile == profile and o.cell == c]) for c in cells}


def _pct(f: dict[str, float]) -> str:
    return f"{100 * f['rate']:.1f}% [{100 * f['low']:.0f}, {100 * f['high']:.0f}]"


def render_swe(summaries: dict[str, dict[str, dict[str, Any]]]) -> str:
    blocks = []
    for profile, cells in summaries.items():
        rows = [HEADER]
        for cell, f in cells.items():
            tok = f["prompt_tokens_per_resolved"]
            per = "-" if tok is None else f"{tok:.0f}"
            rows.append((cell, str(f["n"]), _pct(f["resolved"]), _pct(f["empty_patch"]), _pct(f["stuck_in_loop"]), per))
        widths = [max(len(r[i]) for r in rows) for i in range(len(HEADER))]
        lines = [f"SIMULATED model, profile {profile}: SWE-bench resolved / empty patch / stuck in loop"]
        lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)
