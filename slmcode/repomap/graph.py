"""The file reference graph: an edge from each file that uses an identifier to each file that defines it.

Weights follow aider's repo map, the best prior art for this: an identifier the query mentions x10, a long
descriptive name (snake_case, camelCase or kebab-case, 8+ characters) x10, a private `_name` x0.1, a name
defined in more than 5 files x0.1, and the reference count square-root damped so one file spelling a name
a hundred times does not outvote ten files using it once. Names defined in very many files (`__init__`,
`run`, `get`) say nothing about where to look and would cost edges by the million: they are left out.

The graph is built once per index version, as arrays: one row per (using file, defining file, identifier),
weighted as above except for the query's mention factor. A query then costs a mask over the rows whose
name it mentions and a few array sums, not a rebuild; the cache keeps the arrays between processes.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, fields
from functools import cached_property

import numpy as np

from slmcode.repomap.model import SymbolIndex
from slmcode.repomap.npz import from_npz, to_npz
from slmcode.repomap.tables import NameTables, tables_from_files

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
    """Files, the identifiers they define, every definition, and the weighted rows of the graph."""

    nodes: list[str]  # files, in path order
    names: list[str]  # every defined identifier, in string order (so an id's order is the name's)
    definer_start: np.ndarray  # the files defining names[i]: definer_files[definer_start[i]:definer_start[i+1]]
    definer_files: np.ndarray
    def_file: np.ndarray  # per definition, in each file's order: its file,
    def_name: np.ndarray  # its name,
    def_local: np.ndarray  # its position among its file's definitions,
    def_key: np.ndarray  # its (file, name) pair, which the rows' rank flows into,
    def_order: np.ndarray  # and its place in (path, line, name) order, which breaks ties
    carry_user: np.ndarray  # per row: the using file,
    carry_name: np.ndarray  # the identifier,
    carry_weight: np.ndarray  # its weight without the query's factor (square-root damped count included),
    carry_edge: np.ndarray  # the (user, definer) edge it adds to,
    carry_key: np.ndarray  # and the definer's (file, name) pair
    edge_user: np.ndarray
    edge_definer: np.ndarray
    base_rank: np.ndarray  # PageRank with no query and no focus: what the stable map ranks by

    @cached_property
    def name_ids(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.names)}

    def definers(self, name: str) -> list[int]:
        """Indexes into nodes of the files defining `name`."""
        i = self.name_ids.get(name)
        return [] if i is None else self.definer_files[self.definer_start[i] : self.definer_start[i + 1]].tolist()

    def to_bytes(self) -> bytes:
        return to_npz(self, ("nodes", "names"))

    @classmethod
    def from_bytes(cls, data: bytes) -> ReferenceGraph:
        return cls(**from_npz(cls, data, ("nodes", "names")))


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


def _ints(values: list[int]) -> np.ndarray:
    return np.asarray(values, dtype=np.int64)


def _distinct(values: np.ndarray) -> np.ndarray:
    """np.unique(values), sorted, without the masked-array check that imports numpy.ma (a fortieth of a second
    in a fresh process: a tenth of a map's time after an edit)."""
    ordered = np.sort(values)
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))] if len(ordered) else ordered


def build_graph(index: SymbolIndex) -> ReferenceGraph:
    """The graph of every file the index holds, reading each file's names, not its definitions."""
    nodes = list(index.files)
    per_file = [index.files.names(path) for path in nodes]
    index.files.drop_names()
    return graph_from_tables(tables_from_files(nodes, [""] * len(nodes), per_file))


def graph_from_tables(tables: NameTables) -> ReferenceGraph:
    """The graph of the files the tables hold: integer arithmetic only, names looked up by id."""
    nodes = list(tables.paths)
    # The defined ids, ascending (so sorted as their names are); a count, not a sort.
    name_vocab = np.flatnonzero(np.bincount(tables.def_vocab, minlength=len(tables.vocab)))
    names = [tables.vocab[i] for i in name_vocab.tolist()]
    name_of = np.full(len(tables.vocab), -1, dtype=np.int64)  # -1: a name no file defines
    name_of[name_vocab] = np.arange(len(names))
    n_files, n_names = len(nodes), max(1, len(names))
    sizes = tables.def_sizes
    def_file = np.repeat(np.arange(n_files, dtype=np.int64), sizes)
    def_name = name_of[tables.def_vocab]
    def_start = tables.def_start
    def_local = np.arange(len(def_file), dtype=np.int64) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    # Who defines what: the distinct (name, file) pairs, grouped by name.
    pairs = _distinct(def_name * n_files + def_file)
    definer_files = pairs % max(1, n_files)
    definer_count = np.bincount(pairs // max(1, n_files), minlength=len(names))
    definer_start = np.concatenate([[0], np.cumsum(definer_count)]).astype(np.int64)
    # Every reference to a defined name, weighted; then one row per file defining it (not the user itself).
    all_names = name_of[tables.ref_vocab]
    defined = all_names >= 0
    users = np.repeat(np.arange(n_files, dtype=np.int64), tables.ref_sizes)[defined]
    refs, counts = all_names[defined], tables.ref_count.astype(np.float64)[defined]
    spread = definer_count[refs] if len(refs) else _ints([])
    kept = (spread >= 1) & (spread <= MAX_DEFINERS)
    users, refs, counts, spread = users[kept], refs[kept], counts[kept], spread[kept]
    name_weight = np.zeros(len(names))
    for i in _distinct(refs).tolist():  # only the names some file uses need a weight
        name_weight[i] = identifier_weight(names[i], (), int(definer_count[i]))
    weights = name_weight[refs] * np.sqrt(counts) if len(refs) else np.zeros(0)
    offsets = np.arange(int(spread.sum())) - np.repeat(np.cumsum(spread) - spread, spread)
    carry_definer = definer_files[np.repeat(definer_start[refs], spread) + offsets]
    carry_user, carry_name = np.repeat(users, spread), np.repeat(refs, spread)
    carry_weight = np.repeat(weights, spread)
    other = carry_user != carry_definer
    carry_user, carry_name, carry_weight, carry_definer = (
        carry_user[other],
        carry_name[other],
        carry_weight[other],
        carry_definer[other],
    )
    edges, carry_edge = np.unique(carry_user * n_files + carry_definer, return_inverse=True)
    keys, def_key = np.unique(def_file * n_names + def_name, return_inverse=True)
    carry_key = np.searchsorted(keys, carry_definer * n_names + carry_name)
    order = np.lexsort((def_name, def_start, def_file))
    def_order = np.empty_like(order)
    def_order[order] = np.arange(len(order))
    graph = ReferenceGraph(
        nodes=nodes,
        names=names,
        definer_start=definer_start,
        definer_files=definer_files,
        def_file=def_file,
        def_name=def_name,
        def_local=def_local,
        def_key=def_key.reshape(-1),
        def_order=def_order,
        carry_user=carry_user,
        carry_name=carry_name,
        carry_weight=carry_weight,
        carry_edge=carry_edge.reshape(-1),
        carry_key=carry_key,
        edge_user=edges // max(1, n_files),
        edge_definer=edges % max(1, n_files),
        base_rank=np.zeros(0),
    )
    # Indexes as 32 bits: half the bytes to store and load (no workspace has 2 billion definitions).
    for f in fields(graph):
        value = getattr(graph, f.name)
        if isinstance(value, np.ndarray) and value.dtype == np.int64:
            setattr(graph, f.name, value.astype(np.int32))
    return graph
