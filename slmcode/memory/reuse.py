"""Explore or reuse: whether the context node runs its deep (costly) exploration or reuses memory.

Reuse needs all three: CONTEXT.md is rich (enough touched areas), MEMORY.md lessons or
.slmcode/PROJECT.md exist, and paths CONTEXT.md knows, still on disk, match the task's words. A task whose
words match nothing known is new ground, so it is explored. SLMCODE_FORCE_EXPLORE=1 always explores.
Every check adds a reason, for the trace.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from slmcode.memory.context_file import GROUP_RE
from slmcode.memory.flywheel import read_memory
from slmcode.store.paths import state_dir

FORCE_ENV = "SLMCODE_FORCE_EXPLORE"
TRUE_VALUES = frozenset({"1", "true", "yes", "on"})
MIN_TOUCHED_AREAS = 3
PROJECT_FILE = "PROJECT.md"
MAX_SHOWN_PATHS = 8
# Words too common in task text to say which paths a task is about.
_STOPWORD_TEXT = (
    "the and for with add fix make update use into from that this should when then than also all any are can "
    "does not new its our out one two get set let have has was were will would please file files code function "
    "method class"
)
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


@dataclass(frozen=True)
class ExploreDecision:
    explore: bool
    reasons: list[str] = field(default_factory=list)
    relevant_paths: list[str] = field(default_factory=list)


def words(text: str) -> set[str]:
    """Lowercase word stems of prose or a path: camelCase, snake_case and path parts split apart."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text)
    found = {w.lower() for w in re.findall(r"[A-Za-z0-9]+", spaced)}
    kept = {w for w in found if len(w) >= 3 and w not in STOPWORDS}
    return {w[:-1] if len(w) > 3 and w.endswith("s") else w for w in kept}


def _entry_path(entry: str) -> str:
    match = GROUP_RE.match(entry)
    return match["folder"].rstrip("/") if match else entry


def relevant_paths(workspace: Path, touched: list[str], query: str) -> list[str]:
    """Touched entries that still exist and share a word with the query, in CONTEXT.md's order."""
    query_words = words(query)
    hits = []
    for entry in touched:
        path = _entry_path(entry)
        if path and (workspace / path).exists() and words(path) & query_words:
            hits.append(path)
    return hits


def _forced(environ: Mapping[str, str]) -> bool:
    return environ.get(FORCE_ENV, "").strip().lower() in TRUE_VALUES


def decide_explore(workspace: Path | str, query: str, environ: Mapping[str, str] | None = None) -> ExploreDecision:
    environ = os.environ if environ is None else environ
    workspace = Path(workspace)
    if _forced(environ):
        return ExploreDecision(True, [f"{FORCE_ENV}={environ[FORCE_ENV]} forces exploration"])
    memory = read_memory(workspace)
    reasons: list[str] = []

    rich = len(memory.touched) >= MIN_TOUCHED_AREAS
    reasons.append(
        f"CONTEXT.md lists {len(memory.touched)} touched areas "
        f"({'rich' if rich else 'not rich'}: reuse needs at least {MIN_TOUCHED_AREAS})"
    )
    has_project = (state_dir(workspace) / PROJECT_FILE).is_file()
    known = bool(memory.lessons) or has_project
    present = [f"MEMORY.md ({len(memory.lessons)} lessons)"] if memory.lessons else []
    present += [".slmcode/PROJECT.md"] if has_project else []
    reasons.append(f"{' and '.join(present)} present" if known else "neither MEMORY.md lessons nor PROJECT.md exist")

    hits = relevant_paths(workspace, memory.touched, query)
    if hits:
        shown = ", ".join(hits[:MAX_SHOWN_PATHS]) + (" ..." if len(hits) > MAX_SHOWN_PATHS else "")
        reasons.append(f"{len(hits)} known paths match the task: {shown}")
    else:
        task_words = ", ".join(sorted(words(query))[:MAX_SHOWN_PATHS]) or "none"
        reasons.append(f"no path CONTEXT.md knows matches the task's words ({task_words})")

    reuse = rich and known and bool(hits)
    reasons.append("reuse memory, skip deep exploration" if reuse else "explore")
    return ExploreDecision(explore=not reuse, reasons=reasons, relevant_paths=hits)
