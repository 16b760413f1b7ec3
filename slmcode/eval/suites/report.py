"""Standard-suite reports in the shape of the published tables: for polyglot, pass@1 and pass@2 per language and
in total (aider's leaderboard: percent of exercises whose tests pass after the first try, after the second);
for SWE-bench, % resolved in total and per repository. Turns, tokens and the failure taxonomy ride along."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from typing import Any

from rich.table import Table

from slmcode.eval.suites.attempt import SuiteAttempt
from slmcode.eval.taxonomy import FAILURES


def _percent(part: int, whole: int) -> float:
    return round(100 * part / whole, 1) if whole else 0.0


def _cell(attempts: list[SuiteAttempt], tries: int) -> dict[str, Any]:
    ran = len(attempts)
    cell: dict[str, Any] = {"ran": ran}
    for k in range(1, tries + 1):
        solved = sum(any(a.tries[:k]) for a in attempts)
        cell[f"solved@{k}"] = solved
        cell[f"pass@{k}"] = _percent(solved, ran)
    failures = Counter(a.failure for a in attempts if a.failure)
    cell["failures"] = {f: failures[f] for f in FAILURES if failures[f]}
    cell["turns"] = sum(a.turns for a in attempts)
    cell["prompt_tokens"] = sum(a.prompt_tokens for a in attempts)
    cell["completion_tokens"] = sum(a.completion_tokens for a in attempts)
    return cell


def summarize(
    suite: str, attempts: list[SuiteAttempt], *, tries: int, total: int, skipped: dict[str, str]
) -> dict[str, Any]:
    """Per group (language or repository) and in total. SWE-bench's `resolved %` is over every instance of the
    file, as the published tables count it (one that did not run is not resolved); `resolved % of ran` beside
    it. Polyglot's pass@k is over the exercises that ran; skipped languages are listed, not counted."""
    groups: dict[str, list[SuiteAttempt]] = {}
    for attempt in attempts:
        groups.setdefault(attempt.group, []).append(attempt)
    rows = {name: _cell(group, tries) for name, group in sorted(groups.items())}
    everything = _cell(attempts, tries)
    if suite == "swebench":
        resolved = everything["solved@1"]
        everything |= {
            "instances": total,
            "resolved": resolved,
            "resolved %": _percent(resolved, total),
            "resolved % of ran": _percent(resolved, len(attempts)),
        }
        for cell in rows.values():
            cell |= {"resolved": cell["solved@1"], "resolved %": cell["pass@1"]}
    skipped_groups = Counter(i.split("/")[0] for i in skipped) if suite == "polyglot" else Counter()
    return {"tries": tries, "groups": rows, "total": everything, "skipped_by_group": dict(skipped_groups)}


def payload(
    suite: str,
    source: str,
    attempts: list[SuiteAttempt],
    *,
    tries: int,
    total: int,
    skipped: dict[str, str],
    model: str,
    base_url: str,
) -> dict[str, Any]:
    return {
        "suite": suite,
        "source": source,
        "model": model,
        "base_url": base_url,
        "mode": "measure",
        "finished": datetime.now(UTC).isoformat(),
        "summary": summarize(suite, attempts, tries=tries, total=total, skipped=skipped),
        "skipped": skipped,
        "attempts": [a.as_dict() for a in attempts],
    }


def polyglot_table(summary: dict[str, Any]) -> Table:
    tries = summary["tries"]
    passes = [f"pass@{k}" for k in range(1, tries + 1)]
    table = Table(
        "language", "exercises", *passes, "turns", "prompt tok", "failures", title="polyglot (aider's protocol)"
    )
    skipped = dict(summary["skipped_by_group"])
    for name, cell in summary["groups"].items():
        table.add_row(
            name,
            str(cell["ran"]),
            *(f"{cell[p]:.1f}%" for p in passes),
            str(cell["turns"]),
            str(cell["prompt_tokens"]),
            _failures(cell),
        )
    for name, count in sorted(skipped.items()):
        if name not in summary["groups"]:
            table.add_row(name, f"{count} skipped", *([""] * tries), "", "", "")
    total = summary["total"]
    table.add_row(
        "total",
        str(total["ran"]),
        *(f"{total[p]:.1f}%" for p in passes),
        str(total["turns"]),
        str(total["prompt_tokens"]),
        _failures(total),
        style="bold",
    )
    return table


def swebench_table(summary: dict[str, Any]) -> Table:
    table = Table(
        "repository", "instances", "resolved", "% resolved", "turns", "prompt tok", "failures", title="SWE-bench"
    )
    for name, cell in summary["groups"].items():
        table.add_row(
            name,
            str(cell["ran"]),
            str(cell["resolved"]),
            f"{cell['resolved %']:.1f}%",
            str(cell["turns"]),
            str(cell["prompt_tokens"]),
            _failures(cell),
        )
    total = summary["total"]
    if total["instances"] > total["ran"]:  # counted as not resolved, as the published tables count them
        table.add_row("not run (skipped)", str(total["instances"] - total["ran"]), "0", "", "", "", "")
    table.add_row(
        "total",
        str(total["instances"]),
        str(total["resolved"]),
        f"{total['resolved %']:.1f}%",
        str(total["turns"]),
        str(total["prompt_tokens"]),
        _failures(total),
        style="bold",
    )
    return table


def _failures(cell: dict[str, Any]) -> str:
    return ", ".join(f"{label} {n}" for label, n in cell["failures"].items())


def attempts_table(attempts: list[SuiteAttempt]) -> Table:
    table = Table("item", "group", "tries", "result", "turns", "prompt tok", "wall s", title="attempts")
    for a in attempts:
        result = "[green]solved[/green]" if a.solved else f"[red]{a.failure}[/red]"
        verdicts = " ".join("pass" if t else "fail" for t in a.tries)
        table.add_row(a.id, a.group, verdicts, result, str(a.turns), str(a.prompt_tokens), f"{a.wall_seconds:.1f}")
    return table
