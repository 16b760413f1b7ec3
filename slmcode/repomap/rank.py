"""Ranking: personalised PageRank over the reference graph, then a score per (file, symbol).

The walk restarts at the files the query points to (those defining a mentioned identifier, those whose
path it mentions) and at the focus files; with nothing to point to it restarts anywhere. A file's rank then
flows along its out-edges to the symbols they carry, as in aider's map. Every definition also keeps a small
share of its own file's rank, so a file nobody references still lists its symbols, after the used ones.

The graph is the index version's (built once, cached with the index); the ranking without a query or focus
(the stable map every pack shows) is computed with the graph and kept with it. A query's ranking is the
same arithmetic over the graph's arrays, and only the symbols the map can show are decoded.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from typing import overload

import numpy as np

from slmcode.repomap.graph import MENTIONED_WEIGHT, ReferenceGraph, build_graph
from slmcode.repomap.model import RankedSymbol, SymbolIndex
from slmcode.repomap.query import is_path, query_identifiers

DAMPING = 0.85
MAX_ITERATIONS = 100
TOLERANCE = 1e-6
NAMED_BONUS = 1.0
OWN_FILE_SHARE = 0.01  # of a file's rank, split over its definitions: orders the unreferenced ones


def pagerank(
    graph: ReferenceGraph, restart: np.ndarray, edge_weight: np.ndarray, damping: float = DAMPING
) -> np.ndarray:
    """Power iteration, stopping as networkx does (L1 change under N x 1e-6). `restart` (normalised here) is
    where the walk teleports and where dangling files send their rank; all zero means uniform."""
    n = len(graph.nodes)
    if n == 0:
        return np.zeros(0)
    total = restart.sum()
    teleport = restart / total if total > 0 else np.full(n, 1.0 / n)
    out_weight = np.bincount(graph.edge_user, weights=edge_weight, minlength=n)
    share = edge_weight / out_weight[graph.edge_user] if len(edge_weight) else edge_weight
    dangling = out_weight == 0
    rank = teleport
    for _ in range(MAX_ITERATIONS):
        flowed = np.bincount(graph.edge_definer, weights=rank[graph.edge_user] * share, minlength=n)
        new = damping * (flowed + rank[dangling].sum() * teleport) + (1 - damping) * teleport
        delta = np.abs(new - rank).sum()
        rank = new
        if delta < TOLERANCE * n:
            break
    return rank


def with_base_rank(graph: ReferenceGraph) -> ReferenceGraph:
    """The graph with its query-free ranking computed."""
    weights = np.bincount(graph.carry_edge, weights=graph.carry_weight, minlength=len(graph.edge_user))
    graph.base_rank = pagerank(graph, np.zeros(len(graph.nodes)), weights)
    return graph


def prepared_graph(index: SymbolIndex) -> ReferenceGraph:
    """The index's graph with its query-free ranking, built here when the index came without one."""
    if index.graph is None:
        index.graph = with_base_rank(build_graph(index))
    return index.graph


def named_files(index: SymbolIndex, mentions: Collection[str]) -> list[str]:
    """Files the query names: by path, a folder of it, a path suffix such as `cli.py`, or the bare file name
    without its extension (`the hook` names compact/hook.py)."""
    paths = [m.strip("/") for m in mentions if is_path(m) and m.strip("/")]
    words = {m for m in mentions if not is_path(m)}
    if not paths and not words:
        return []
    return [
        path
        for path in index.files
        if any(path == p or path.endswith("/" + p) or path.startswith(p + "/") for p in paths)
        or path.rsplit("/", 1)[-1].rsplit(".", 1)[0] in words
    ]


def restart_weights(
    index: SymbolIndex, graph: ReferenceGraph, mentions: Collection[str], focus_files: Sequence[str]
) -> np.ndarray:
    """Restart mass per file: 1 for each focus file and each file whose path the query names; each identifier
    the query mentions adds 1 shared among the files defining it, so a name defined once points harder than
    `run`; a word naming a folder ("in compact") adds 1 to each file in it, as in aider."""
    where = {path: i for i, path in enumerate(graph.nodes)}
    weights = np.zeros(len(graph.nodes))
    for path in sorted(set(focus_files)):
        if path in where:
            weights[where[path]] = 1.0
    for path in named_files(index, mentions):
        weights[where[path]] += 1.0
    names = sorted(m for m in mentions if not is_path(m))
    for name in names:
        files = graph.definers(name)
        for i in files:
            weights[i] += 1.0 / len(files)
    if names:
        words = set(names)
        for i, path in enumerate(graph.nodes):
            if words.intersection(path.split("/")[:-1]):
                weights[i] += 1.0
    return weights


def _scores(index: SymbolIndex, graph: ReferenceGraph, query: str, focus_files: Sequence[str]) -> np.ndarray:
    """A score per definition of the graph (its def_* arrays' order)."""
    mentions = set(query_identifiers(query))
    mentioned = np.array(sorted(i for m in mentions if (i := graph.name_ids.get(m)) is not None), dtype=np.int64)
    weight = graph.carry_weight
    if len(mentioned):
        weight = np.where(np.isin(graph.carry_name, mentioned), weight * MENTIONED_WEIGHT, weight)
    edge_weight = np.bincount(graph.carry_edge, weights=weight, minlength=len(graph.edge_user))
    restart = restart_weights(index, graph, mentions, focus_files)
    # Without a query or focus, the ranking computed once per index version.
    file_rank = pagerank(graph, restart, edge_weight) if restart.any() or len(mentioned) else graph.base_rank
    n = len(graph.nodes)
    out_weight = np.bincount(graph.edge_user, weights=edge_weight, minlength=n)
    users = graph.carry_user
    flowing = file_rank[users] * weight / np.where(out_weight[users] > 0, out_weight[users], 1.0)
    flow = np.bincount(graph.carry_key, weights=flowing, minlength=int(graph.def_key.max(initial=-1)) + 1)
    per_file = np.maximum(1, np.bincount(graph.def_file, minlength=n))
    score = flow[graph.def_key] + file_rank[graph.def_file] * OWN_FILE_SHARE / per_file[graph.def_file]
    # What the query names comes first: ranks sum to 1, so a whole unit more puts it above the rest.
    named = np.zeros(n, dtype=bool)
    where = {path: i for i, path in enumerate(graph.nodes)}
    named[[where[path] for path in named_files(index, mentions)]] = True
    if len(mentioned):
        is_mentioned = np.isin(graph.def_name, mentioned)
        score = np.where(is_mentioned, score * MENTIONED_WEIGHT + NAMED_BONUS, score)
        return np.where(~is_mentioned & named[graph.def_file], score + NAMED_BONUS, score)
    return np.where(named[graph.def_file], score + NAMED_BONUS, score)


class Ranking(Sequence[RankedSymbol]):
    """Ranked symbols, best first, each decoded when first read: a map reads its first few dozen."""

    def __init__(
        self,
        index: SymbolIndex,
        graph: ReferenceGraph,
        order: np.ndarray,
        score: np.ndarray,
        limit: int,
        skip: Collection[tuple[str, str, int]],
    ) -> None:
        self._read: list[RankedSymbol] = []
        self._pending = self._walk(index, graph, order.tolist(), score, limit, skip)

    @staticmethod
    def _walk(
        index: SymbolIndex,
        graph: ReferenceGraph,
        order: list[int],
        score: np.ndarray,
        limit: int,
        skip: Collection[tuple[str, str, int]],
    ) -> Iterator[RankedSymbol]:
        given = 0
        for i in order:
            if given >= limit:
                return
            definitions = index.files[graph.nodes[graph.def_file[i]]].definitions
            if graph.def_local[i] >= len(definitions):
                continue  # a cache row whose definitions were damaged: build.py shows none of them
            symbol = definitions[graph.def_local[i]]
            if skip and (symbol.path, symbol.name, symbol.start) in skip:
                continue
            given += 1
            yield RankedSymbol(symbol=symbol, rank=float(score[i]))

    def _fill(self, count: int | None) -> None:
        while count is None or len(self._read) < count:
            found = next(self._pending, None)
            if found is None:
                return
            self._read.append(found)

    @overload
    def __getitem__(self, at: int) -> RankedSymbol: ...
    @overload
    def __getitem__(self, at: slice) -> list[RankedSymbol]: ...

    def __getitem__(self, at: int | slice) -> RankedSymbol | list[RankedSymbol]:
        if isinstance(at, slice):
            bounds = (at.start or 0, at.stop)
            self._fill(None if any(b is not None and b < 0 for b in bounds) or at.stop is None else at.stop)
            return self._read[at]
        self._fill(None if at < 0 else at + 1)
        return self._read[at]

    def __len__(self) -> int:
        self._fill(None)
        return len(self._read)


def rank_symbols(
    index: SymbolIndex,
    *,
    query: str = "",
    focus_files: Sequence[str] = (),
    limit: int | None = None,
    skip_files: Collection[str] = (),
    skip: Collection[tuple[str, str, int]] = (),
) -> Ranking:
    """The index's definitions with a score, best first (ties by path, line, name): at most `limit`, none
    from `skip_files` and none whose (path, name, start) is in `skip`."""
    graph = prepared_graph(index)
    if not len(graph.def_file):
        return Ranking(index, graph, np.zeros(0, dtype=np.int64), np.zeros(0), 0, ())
    # Rounded so that scores equal but for the order of a sum's terms tie, and (path, line, name) decides.
    score = np.round(_scores(index, graph, query, focus_files), 12)
    order = np.lexsort((graph.def_order, -score))
    if skip_files:
        shown = set(skip_files)
        skipped = np.isin(graph.def_file, [i for i, p in enumerate(graph.nodes) if p in shown])
        order = order[~skipped[order]]
    return Ranking(index, graph, order, score, len(order) if limit is None else limit, skip)
