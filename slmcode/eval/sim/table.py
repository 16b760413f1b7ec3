"""The SIMULATED comparison's table: per profile, one row per cell (the harness, the plain loop, the harness with
one lever off) with its solve rate and 95% interval, the harness's paired lead over that row (bootstrap interval,
McNemar p), turns and prompt tokens per attempt, and the failure taxonomy; then the harness / plain-loop ratio,
and each row's cost per solved task (sim/cost.py).
Plain text, so the same table goes to the terminal and to docs/bench."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from slmcode.eval.report import ratio
from slmcode.eval.sim.compare import Cell, Outcome
from slmcode.eval.sim.cost import cost_block, per_solve
from slmcode.eval.sim.fallback import escalation_line
from slmcode.eval.sim.stats import paired, wilson
from slmcode.eval.taxonomy import FAILURES

HEADER = ("cell", "solved", "rate [95% CI]", "harness - row [95% CI]", "McNemar p", "turns", "prompt tok", "failures")
SHORT = {
    "malformed_tool_call": "malformed",
    "invalid_structured_answer": "schema",
    "context_overflow": "overflow",
    "tests_failed": "tests_failed",
    "empty_patch": "empty",
    "loop": "loop",
    "timeout": "timeout",
    "error": "error",
}


def _key(o: Outcome) -> tuple[str, int]:
    return o.task, o.seed


def _by_cell(outcomes: Sequence[Outcome], profile: str) -> dict[Cell, list[Outcome]]:
    cells: dict[Cell, list[Outcome]] = {}
    for o in outcomes:
        if o.profile == profile:
            cells.setdefault(o.cell, []).append(o)
    return {cell: sorted(rows, key=_key) for cell, rows in cells.items()}


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def cell_figures(rows: list[Outcome], reference: list[Outcome] | None) -> dict[str, Any]:
    """One row's figures; `reference` is the harness's rows on the same pairs (None for the harness itself)."""
    solved = [o.attempt.solved for o in rows]
    n = len(rows)
    low, high = wilson(sum(solved), n)
    figures: dict[str, Any] = {
        "solved": sum(solved),
        "attempts": n,
        "rate": sum(solved) / n if n else 0.0,
        "low": low,
        "high": high,
        "turns": sum(o.attempt.turns for o in rows) / n if n else 0.0,
        "prompt_tokens": sum(o.attempt.prompt_tokens for o in rows) / n if n else 0.0,
        "failures": dict(Counter(o.attempt.failure for o in rows if o.attempt.failure)),
        "errors_made": dict(sum((o.errors for o in rows), Counter())),
        "per_solve": per_solve(sum(solved), [o.cost for o in rows if o.cost]),
    }
    if reference is not None:
        ours = {_key(o): o.attempt.solved for o in reference}
        pairs = [(ours[_key(o)], o.attempt.solved) for o in rows if _key(o) in ours]
        lead = paired([a for a, _ in pairs], [b for _, b in pairs])
        figures["lead"] = {
            "diff": lead.diff,
            "low": lead.low,
            "high": lead.high,
            "p": lead.p,
            "only_harness": lead.only_a,
            "only_row": lead.only_b,
        }
    return figures


def profile_summary(outcomes: Sequence[Outcome], profile: str) -> dict[str, dict[str, Any]]:
    cells = _by_cell(outcomes, profile)
    harness = cells.get(Cell("harness"))
    return {cell.name: cell_figures(rows, None if cell == Cell("harness") else harness) for cell, rows in cells.items()}


def _failures(counts: dict[str, int]) -> str:
    return ", ".join(f"{SHORT[k]} {counts[k]}" for k in FAILURES if counts.get(k)) or "-"


def _row(name: str, f: dict[str, Any]) -> tuple[str, ...]:
    lead = f.get("lead")
    lead_text = f"{100 * lead['diff']:+.0f} pts [{100 * lead['low']:+.0f}, {100 * lead['high']:+.0f}]" if lead else "-"
    p = f"{lead['p']:.3f}" if lead else "-"
    return (
        name,
        f"{f['solved']}/{f['attempts']}",
        f"{_pct(f['rate'])} [{_pct(f['low'])}, {_pct(f['high'])}]",
        lead_text,
        p,
        f"{f['turns']:.1f}",
        f"{f['prompt_tokens']:.0f}",
        _failures(f["failures"]),
    )


def headline(summary: dict[str, dict[str, Any]]) -> str:
    harness, plain = summary.get("harness"), summary.get("plain loop")
    if harness is None or plain is None:
        return ""
    return (
        f"harness / plain loop: {ratio(harness['rate'], plain['rate'])} "
        f"({_pct(harness['rate'])} vs {_pct(plain['rate'])} solved)"
    )


def render(summaries: dict[str, dict[str, dict[str, Any]]]) -> str:
    """Every profile's block, columns aligned."""
    blocks = []
    for profile, summary in summaries.items():
        rows = [HEADER, *(_row(name, figures) for name, figures in summary.items())]
        widths = [max(len(r[i]) for r in rows) for i in range(len(HEADER))]
        lines = [f"SIMULATED model, profile {profile}"]
        lines += ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip() for r in rows]
        if line := headline(summary):
            lines.append(line)
        lines += [escalation_line(name, figures) for name, figures in summary.items() if " + fallback " in name]
        lines += cost_block(summary)
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)
