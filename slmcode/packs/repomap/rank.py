"""Ranking: personalised PageRank over the reference graph, then a score per (file, symbol).

The walk restarts at the files the query points to (those defining a mentioned identifier, those whose
path it mentions) and at the focus files; with nothing to point to it restarts anywhere. A file's rank then
flows along its out-edges to the symbols they carry, as in aider's map. Every definition also keeps a small
share of its own file's rank, so a file nobody references still lists its symbols, after the used ones.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from slmcode.packs.repomap.graph import MENTIONED_WEIGHT, ReferenceGraph, build_graph, definers_by_name
from slmcode.packs.repomap.model import RankedSymbol, SymbolIndex
from slmcode.packs.repomap.query import is_path, query_identifiers

DAMPING = 0.85
MAX_ITERATIONS = 100
TOLERANCE = 1e-6
NAMED_BONUS = 1.0
OWN_FILE_SHARE = 0.01  # of a file's rank, split over its definitions: orders the unreferenced ones


def pagerank(graph: ReferenceGraph, restart: dict[str, float], damping: float = DAMPING) -> dict[str, float]:
    """Power iteration, stopping as networkx does (L1 change under N x 1e-6). `restart` (normalised here) is
    where the walk teleports and where dangling files send their rank; empty means uniform."""
    nodes = graph.nodes
    if not nodes:
        return {}
    total = sum(restart.values())
    teleport = {n: restart.get(n, 0.0) / total for n in nodes} if total > 0 else {n: 1 / len(nodes) for n in nodes}
    out_weight: dict[str, float] = {}
    for (user, _), weight in graph.edges.items():
        out_weight[user] = out_weight.get(user, 0.0) + weight
    incoming: dict[str, list[tuple[str, float]]] = {n: [] for n in nodes}
    for (user, definer), weight in sorted(graph.edges.items()):
        incoming[definer].append((user, weight / out_weight[user]))
    dangling_nodes = [n for n in nodes if n not in out_weight]
    rank = dict(teleport)
    for _ in range(MAX_ITERATIONS):
        dangling = sum(rank[n] for n in dangling_nodes)
        new = {
            n: damping * (sum(rank[u] * share for u, share in incoming[n]) + dangling * teleport[n])
            + (1 - damping) * teleport[n]
            for n in nodes
        }
        delta = sum(abs(new[n] - rank[n]) for n in nodes)
        rank = new
        if delta < TOLERANCE * len(nodes):
            break
    return rank


def named_files(index: SymbolIndex, mentions: Collection[str]) -> list[str]:
    """Files the query names: by path, a folder of it, a path suffix such as `cli.py`, or the bare file name
    without its extension (`the hook` names compact/hook.py)."""
    paths = [m.strip("/") for m in mentions if is_path(m) and m.strip("/")]
    words = {m for m in mentions if not is_path(m)}
    return [
        path
        for path in sorted(index.files)
        if any(path == p or path.endswith("/" + p) or path.startswith(p + "/") for p in paths)
        or path.rsplit("/", 1)[-1].rsplit(".", 1)[0] in words
    ]


def restart_weights(
    index: SymbolIndex, mentions: Collection[str], focus_files: Sequence[str], definers: dict[str, list[str]]
) -> dict[str, float]:
    """Restart mass: 1 for each focus file and each file whose path the query names; each identifier the query
    mentions adds 1 shared among the files defining it, so a name defined once points harder than `run`."""
    weights: dict[str, float] = {f: 1.0 for f in focus_files if f in index.files}
    for path in named_files(index, mentions):
        weights[path] = weights.get(path, 0.0) + 1.0
    names = sorted(m for m in mentions if not is_path(m))
    for name in names:
        files = definers.get(name, ())
        for path in files:
            weights[path] = weights.get(path, 0.0) + 1.0 / len(files)
    # A word naming a folder ("in compact") points at the files in it, as in aider.
    for path in sorted(index.files):
        if set(names) & set(path.split("/")[:-1]):
            weights[path] = weights.get(path, 0.0) + 1.0
    return dict(sorted(weights.items()))


def rank_symbols(index: SymbolIndex, *, query: str = "", focus_files: Sequence[str] = ()) -> list[RankedSymbol]:
    """Every definition of the index with a score, best first; ties by path, line, name."""
    mentions = set(query_identifiers(query))
    definers = definers_by_name(index)
    graph = build_graph(index, mentions, definers)
    file_rank = pagerank(graph, restart_weights(index, mentions, focus_files, definers))
    out_weight: dict[str, float] = {}
    for (user, _), weight in graph.edges.items():
        out_weight[user] = out_weight.get(user, 0.0) + weight
    flow: dict[tuple[str, str], float] = {}
    for (user, definer), carried in sorted(graph.carried.items()):
        for name, weight in carried:
            key = (definer, name)
            flow[key] = flow.get(key, 0.0) + file_rank[user] * weight / out_weight[user]
    named = set(named_files(index, mentions))
    ranked: list[RankedSymbol] = []
    for path in graph.nodes:
        definitions = index.files[path].definitions
        own = file_rank[path] * OWN_FILE_SHARE / max(1, len(definitions))
        for symbol in definitions:
            score = flow.get((path, symbol.name), 0.0) + own
            # What the query names comes first: ranks sum to 1, so a whole unit more puts it above the rest.
            if symbol.name in mentions:
                score = score * MENTIONED_WEIGHT + NAMED_BONUS
            elif path in named:
                score += NAMED_BONUS
            ranked.append(RankedSymbol(symbol=symbol, rank=score))
    ranked.sort(key=lambda r: (-r.rank, r.symbol.path, r.symbol.start, r.symbol.name))
    return ranked
