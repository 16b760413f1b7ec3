"""The repo map of a pack, in two parts: a stable one in the system message and one for the task in the human one.

The map's budget shrinks 8% for each file body in the pack, never under 25% (repomap.build.map_budget): code the
model already sees needs no map. How many file bodies a pack holds depends on the task, and a system message
that changed with it would cost the server its KV-cache prefix on every task of a role. So the system message
holds the floor share, ranked without the query (the same bytes for every task of a run), and the rest of the
shrinking budget goes to a map for this task, last, in the human message: ranked for the query and the focus
files, without the symbols the stable part lists and without the files whose code is already in the pack. A
small pack, whose map share is below the configured map size, has no task part.

A part that fails (a defect in ranking or rendering, a cache row no build foresaw) never fails the pack: it
comes back as None with the reason, and the pack goes without it and says why in its notes.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from slmcode.budget.tokens import TokenCounter
from slmcode.repomap.build import MAP_FLOOR, map_budget, render_map
from slmcode.repomap.model import RepoMap, SymbolIndex
from slmcode.repomap.prompts import MAP_HEADER
from slmcode.repomap.rank import rank_symbols
from slmcode.repomap.render import fit_map


def map_failure(exc: Exception) -> str:
    return f"the repo map failed ({type(exc).__name__}: {exc})"


def stable_map(index: SymbolIndex, base_tokens: int, counter: TokenCounter) -> tuple[RepoMap | None, str]:
    """The floor share of the map, with no query and no focus: identical for every task of a run."""
    try:
        return render_map(index, budget_tokens=max(0, round(base_tokens * MAP_FLOOR)), counter=counter), ""
    except Exception as exc:
        return None, map_failure(exc)


def has_task_map(base_tokens: int, full_tokens: int) -> bool:
    """Whether a pack whose map may take `base_tokens` gets a task part. A map squeezed below its configured size
    (`full_tokens`: a small pack) does not: its tokens show code instead, which holds the lines a change touches
    more often than a list of names does (bench/localization.py: +0.02 hunk recall at 2,000 and 4,000 tokens),
    and the stable part still orients."""
    return base_tokens > 0 and base_tokens >= full_tokens


def task_map_budget(base_tokens: int, files_in_pack: int, stable_tokens: int) -> int:
    """What the task's part may take once `files_in_pack` file bodies are in the pack."""
    return max(0, map_budget(base_tokens, files_in_pack) - stable_tokens) if base_tokens > 0 else 0


def task_map(
    index: SymbolIndex,
    *,
    query: str,
    focus_files: Sequence[str],
    stable: RepoMap,
    shown_files: Collection[str],
    budget_tokens: int,
    counter: TokenCounter,
) -> tuple[RepoMap | None, str]:
    """The best symbols for this task that neither the stable part lists nor the pack's code already shows."""
    try:
        return _task_map(index, query, focus_files, stable, shown_files, budget_tokens, counter), ""
    except Exception as exc:
        return None, map_failure(exc)


def _task_map(
    index: SymbolIndex,
    query: str,
    focus_files: Sequence[str],
    stable: RepoMap,
    shown_files: Collection[str],
    budget_tokens: int,
    counter: TokenCounter,
) -> RepoMap:
    listed = {(r.symbol.path, r.symbol.name, r.symbol.start) for r in stable.symbols}
    ranked = rank_symbols(
        index, query=query, focus_files=focus_files, limit=max(0, budget_tokens), skip_files=shown_files, skip=listed
    )
    # The stable part's header already says what the map is and how to read it; the task's part continues it.
    return fit_map(ranked, budget_tokens, counter, header="" if stable.symbols else MAP_HEADER)
