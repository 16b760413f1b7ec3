"""The SIMULATED polyglot table as aider publishes it: per profile and cell, pass_1 (solved on the first try)
and pass_2 (solved by the second try, told the failing output), overall and per language, with 95% intervals
and tokens per solved exercise. Plain text, so the same table goes to the terminal and to docs/bench."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from slmcode.eval.sim.compare import Outcome
from slmcode.eval.sim.stats import wilson

HEADER = ("cell", "language", "n", "pass_1 [95% CI]", "pass_2 [95% CI]", "prompt tok / solved")


def _rate(passed: int, n: int) -> dict[str, float]:
    low, high = wilson(passed, n)
    return {"passed": passed, "rate": passed / n if n else 0.0, "low": low, "high": high}


def figures(rows: Sequence[Outcome]) -> dict[str, Any]:
    tries = [o.attempt.tries or [o.attempt.solved] for o in rows]
    n = len(rows)
    solved = sum(any(t) for t in tries)
    tokens = sum(o.attempt.prompt_tokens for o in rows)
    return {
        "n": n,
        "pass_1": _rate(sum(bool(t[0]) for t in tries), n),
        "pass_2": _rate(solved, n),
        "prompt_tokens_per_solved": tokens / solved if solved else None,
    }


def pass_summary(outcomes: Sequence[Outcome], profile: str, language: dict[str, str]) -> dict[str, Any]:
    """cell -> {"all": figures, language: figures}; `language` maps a task id to its language."""
    out: dict[str, Any] = {}
    for cell in dict.fromkeys(o.cell for o in outcomes if o.profile == profile):
        rows = [o for o in outcomes if o.profile == profile and o.cell == cell]
        per = {"all": figures(rows)}
        for lang in sorted({language[o.task] for o in rows}):
            per[lang] = figures([o for o in rows if language[o.task] == lang])
        out[cell.name] = per
    return out


def _pct(f: dict[str, float]) -> str:
    return f"{100 * f['rate']:.1f}% [{100 * f['low']:.0f}, {100 * f['high']:.0f}]"


def render_passes(summaries: dict[str, dict[str, Any]]) -> str:
    blocks = []
    for profile, cells in summaries.items():
        rows = [HEADER]
        for cell, per in cells.items():
            for lang, f in per.items():
                tok = f["prompt_tokens_per_solved"]
                per_solved = "-" if tok is None else f"{tok:.0f}"
                rows.append((cell, lang, str(f["n"]), _pct(f["pass_1"]), _pct(f["pass_2"]), per_solved))
        widths = [max(len(r[i]) for r in rows) for i in range(len(HEADER))]
        lines = [f"SIMULATED model, profile {profile}: polyglot pass_1 / pass_2"]
        lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)
