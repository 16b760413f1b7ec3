"""What an eval run reports: a row per attempt, a summary per agent (solve rate, failure taxonomy, turns,
tokens, time), the harness next to the baseline with their ratio, and the JSON file that holds it all."""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.table import Table

from slmcode.eval.attempt import AGENTS, Attempt
from slmcode.eval.taxonomy import FAILURES


def summarize(attempts: list[Attempt]) -> dict[str, dict[str, Any]]:
    """Per agent: attempts, solved, solve rate, failures by label, total turns, tokens and wall time."""
    summary: dict[str, dict[str, Any]] = {}
    for agent in AGENTS:
        mine = [a for a in attempts if a.agent == agent]
        if not mine:
            continue
        solved = sum(a.solved for a in mine)
        failures = Counter(a.failure for a in mine if a.failure)
        summary[agent] = {
            "attempts": len(mine),
            "solved": solved,
            "solve_rate": round(solved / len(mine), 3),
            "failures": {label: failures[label] for label in FAILURES if failures[label]},
            "turns": sum(a.turns for a in mine),
            "prompt_tokens": sum(a.prompt_tokens for a in mine),
            "completion_tokens": sum(a.completion_tokens for a in mine),
            "wall_seconds": round(sum(a.wall_seconds for a in mine), 1),
        }
    return summary


def ratio(harness: float, baseline: float) -> str:
    if baseline == 0:  # no ratio to a zero: say what happened instead of "inf"
        return "n/a (both 0)" if harness == 0 else "n/a (baseline 0)"
    return f"{harness / baseline:.2f}x"


def attempts_table(attempts: list[Attempt]) -> Table:
    table = Table(
        "task",
        "language",
        "kind",
        "agent",
        "result",
        "turns",
        "prompt tok",
        "completion tok",
        "wall s",
        title="slmcode eval",
    )
    for a in attempts:
        result = "[green]solved[/green]" if a.solved else f"[red]{a.failure}[/red]"
        table.add_row(
            a.task,
            a.language,
            a.kind,
            a.agent,
            result,
            str(a.turns),
            str(a.prompt_tokens),
            str(a.completion_tokens),
            f"{a.wall_seconds:.1f}",
        )
    return table


def summary_table(summary: dict[str, dict[str, Any]]) -> Table:
    """One column per agent; with the harness and the baseline, a ratio column (harness / baseline)."""
    agents = list(summary)
    both = agents[:2] == ["harness", "baseline"]
    table = Table("", *agents, *(["harness / baseline"] if both else []), title="summary")
    rows = [
        ("solved", "solved"),
        ("solve rate", "solve_rate"),
        ("turns", "turns"),
        ("prompt tokens", "prompt_tokens"),
        ("completion tokens", "completion_tokens"),
        ("wall s", "wall_seconds"),
    ]
    for label, key in rows:
        values = [summary[a][key] for a in agents]
        cells = [
            f"{v}/{summary[a]['attempts']}" if key == "solved" else str(v) for a, v in zip(agents, values, strict=True)
        ]
        table.add_row(label, *cells, *([ratio(values[0], values[1])] if both else []))
    for failure in FAILURES:
        counts = [summary[a]["failures"].get(failure, 0) for a in agents]
        if any(counts):
            table.add_row(f"  {failure}", *map(str, counts), *([""] if both else []))
    return table


def payload(
    attempts: list[Attempt], *, model: str, base_url: str, mode: str, skipped: dict[str, str]
) -> dict[str, Any]:
    return {
        "model": model,
        "base_url": base_url,
        "mode": mode,
        "finished": datetime.now(UTC).isoformat(),
        "summary": summarize(attempts),
        "skipped": skipped,
        "attempts": [a.as_dict() for a in attempts],
    }


def write_json(out_dir: Path, data: dict[str, Any]) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"eval-{datetime.now(UTC):%Y%m%d-%H%M%S}.json"
    path.write_text(json.dumps(data, indent=2) + "\n")
    return path
