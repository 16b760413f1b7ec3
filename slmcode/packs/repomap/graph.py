"""The file reference graph: an edge from each file that uses an identifier to each file that defines it.

Weights follow aider's repo map, the best prior art for this: an identifier the query mentions x10, a long
descriptive name (snake_case, camelCase or kebab-case, 8+ characters) x10, a private `_name` x0.1, a name
defined in more than 5 files x0.1, and the reference count square-root damped so one file spelling a name
a hundred times does not outvote ten files using it once. Names defined in very many files (`__init__`,
`run`, `get`) say nothing about where to look and would cost edges by the million: they are left out.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection
from dataclasses import dataclass, field

from slmcode.packs.repomap.model import SymbolIndex

MENTIONED_WEIGHT = 10.0
DESCRIPTIVE_WEIGHT = 10.0
DESCRIPTIVE_MIN_CHARS = 8
PRIVATE_WEIGHT = 0.1
COMMON_WEIGHT = 0.1
COMMON_DEFINERS = 5
MAX_DEFINERS = 25  # more definers than this: a name too common to point anywhere

_CAMEL = re.compile(r"[a-z][A-Z]|[A-Z][a-z]")


@dataclass
class ReferenceGraph:
    """Weighted edges between files, and the identifiers each edge carries (for per-symbol scores)."""

    nodes: list[str]
    edges: dict[tuple[str, str], float] = field(default_factory=dict)  # (user, definer) -> weight
    carried: dict[tuple[str, str], list[tuple[str, float]]] = field(default_factory=dict)  # -> [(name, w)]


def identifier_weight(name: str, mentioned: Collection[str], definers: int) -> float:
    weight = 1.0
    if name in mentioned:
        weight *= MENTIONED_WEIGHT
    descriptive = "_" in name.strip("_") or "-" in name or _CAMEL.search(name) is not None
    if descriptive and len(name) >= DESCRIPTIVE_MIN_CHARS:
        weight *= DESCRIPTIVE_WEIGHT
    if name.startswith("_"):
        weight *= PRIVATE_WEIGHT
    if definers > COMMON_DEFINERS:
        weight *= COMMON_WEIGHT
    return weight


def definers_by_name(index: SymbolIndex) -> dict[str, list[str]]:
    """name -> the files defining it, sorted."""
    definers: dict[str, list[str]] = {}
    for path in sorted(index.files):
        for name in sorted({s.name for s in index.files[path].definitions}):
            definers.setdefault(name, []).append(path)
    return definers


def build_graph(
    index: SymbolIndex, mentioned: Collection[str], definers: dict[str, list[str]] | None = None
) -> ReferenceGraph:
    definers = definers_by_name(index) if definers is None else definers
    graph = ReferenceGraph(nodes=sorted(index.files))
    for user in graph.nodes:
        for name, uses in index.files[user].uses().items():
            files = definers.get(name)
            if not files or len(files) > MAX_DEFINERS:
                continue
            weight = identifier_weight(name, mentioned, len(files)) * math.sqrt(uses)
            for definer in files:
                if definer == user:
                    continue
                key = (user, definer)
                graph.edges[key] = graph.edges.get(key, 0.0) + weight
                graph.carried.setdefault(key, []).append((name, weight))
    return graph
