"""Rendering: the largest map of the best-ranked symbols that fits a token budget.

The map lists files in the order of their best symbol, each file's chosen symbols in line order, with the
signature line as written and its real line range. How many symbols fit is found by binary search over
the ranked list, each candidate counted with the real tokenizer: the result is the largest prefix that was
counted and fits, so the budget holds even where token counts are not additive.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from slmcode.budget.fitting import largest_fitting
from slmcode.budget.tokens import default_counter
from slmcode.repomap.model import RankedSymbol, RepoMap
from slmcode.repomap.prompts import FILE_LINE, MAP_HEADER, SYMBOL_LINE


class Counts(Protocol):  # a TokenCounter, or one that remembers counts (fitted.RememberedCounts)
    def count(self, text: str) -> int: ...


def chosen_files(chosen: Sequence[RankedSymbol]) -> list[str]:
    """Paths in the order their best symbol ranks (the ranked list is best first)."""
    return list(dict.fromkeys(r.symbol.path for r in chosen))


def shown_path(path: str) -> str:
    """A path as the map shows it: a byte that is not UTF-8 (a surrogate escape) as \\xNN, which the tools read
    back; a surrogate itself could not be encoded into a prompt, a trace or a terminal."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def render_text(chosen: Sequence[RankedSymbol], header: str = MAP_HEADER) -> str:
    if not chosen:
        return ""
    by_file: dict[str, list[RankedSymbol]] = {}
    for r in chosen:
        by_file.setdefault(r.symbol.path, []).append(r)
    lines = [header] if header else []
    for path in chosen_files(chosen):
        lines.append(FILE_LINE.format(path=shown_path(path)))
        for r in sorted(by_file[path], key=lambda r: (r.symbol.start, r.symbol.name)):
            s = r.symbol
            lines.append(SYMBOL_LINE.format(start=s.start, end=s.end, signature=s.signature.strip()))
    return "\n".join(lines) + "\n"


def fit_map(
    ranked: Sequence[RankedSymbol], budget_tokens: int, counter: Counts | None = None, header: str = MAP_HEADER
) -> RepoMap:
    """The longest ranked prefix whose rendering fits `budget_tokens` (an empty map when nothing fits);
    `header` opens it (empty when another part of the map already said what a map is)."""
    counter = counter or default_counter()

    def fits(n: int) -> bool:
        return counter.count(render_text(ranked[:n], header)) <= budget_tokens

    # Each symbol costs at least a token, so more symbols than the budget can never fit. The search gallops
    # up from the top (1, 3, 7, ... symbols) before it halves: the ranking decodes only what it was asked for,
    # and a map holds a few dozen symbols of the thousands a budget bounds.
    limit, low, step = max(0, budget_tokens), 0, 1
    while True:
        probe = len(ranked[: min(limit, low + step)])
        if probe <= low:
            high = low
            break
        if not fits(probe):
            high = probe - 1
            break
        low, step = probe, step * 2
    count = largest_fitting(low, high, fits)
    chosen = tuple(ranked[:count])
    text = render_text(chosen, header) if chosen else ""
    return RepoMap(
        text=text, tokens=counter.count(text), budget=budget_tokens, files=tuple(chosen_files(chosen)), symbols=chosen
    )
