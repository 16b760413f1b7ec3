"""The reference graph's inputs as integer tables, stored with the graph so that a build after an edit
patches them (the edited files' names out, their new ones in) instead of decoding every file's names again.

Per file, in path order: the digest of its bytes, its definitions (name, first line) and its references
(name, count), each name an id into one sorted vocabulary of every name the files spell. A cold build makes
the tables from every file, a patch from the old tables and the changed files; both give the same tables,
so graph_from_tables gives the same graph, byte for byte (tests/repomap/test_tables.py).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np

from slmcode.repomap.npz import from_npz, to_npz

Names = tuple[list[str], list[int], list[str], list[int]]  # defined, their first lines, referenced, counts


@dataclass
class NameTables:
    paths: list[str]  # files, in path order
    digests: list[str]  # each file's content digest: a file whose digest is unchanged keeps its rows
    vocab: list[str]  # every name some file defines or references, sorted: an id's order is its name's
    def_sizes: np.ndarray  # per file: how many definitions it has
    def_vocab: np.ndarray  # per definition, file after file: its name's id
    def_start: np.ndarray  # and its first line
    ref_sizes: np.ndarray  # per file: how many distinct names it references
    ref_vocab: np.ndarray  # per reference, file after file: the name's id
    ref_count: np.ndarray  # and how often the file spells it

    def to_bytes(self) -> bytes:
        return to_npz(self, _LABELS)

    @classmethod
    def from_bytes(cls, data: bytes) -> NameTables:
        tables = cls(**from_npz(cls, data, _LABELS))
        if not (len(tables.paths) == len(tables.digests) == len(tables.def_sizes) == len(tables.ref_sizes)):
            raise ValueError("stored name tables disagree")
        return tables


_LABELS = ("paths", "digests", "vocab")


def _ints(values: Sequence[int] | list[int]) -> np.ndarray:
    return np.asarray(values, dtype=np.int64)


def _checked(names: Names) -> Names:
    defined, starts, refs, counts = names
    if len(defined) != len(starts) or len(refs) != len(counts):
        raise ValueError("a file's names and counts disagree")
    return names


def tables_from_files(paths: list[str], digests: list[str], per_file: Sequence[Names]) -> NameTables:
    """The tables of every file, from each file's names."""
    per_file = [_checked(names) for names in per_file]
    defined, refs = _joined(per_file, 0), _joined(per_file, 2)  # every file's, one after the other
    vocab = sorted(set(defined).union(refs))
    ids = dict(zip(vocab, range(len(vocab)), strict=True))
    return NameTables(
        paths=list(paths),
        digests=list(digests),
        vocab=vocab,
        def_sizes=_ints([len(names[0]) for names in per_file]),
        def_vocab=_ints(list(map(ids.__getitem__, defined))),  # the lookups in C, not a Python loop
        def_start=_ints(_joined(per_file, 1)),
        ref_sizes=_ints([len(names[2]) for names in per_file]),
        ref_vocab=_ints(list(map(ids.__getitem__, refs))),
        ref_count=_ints(_joined(per_file, 3)),
    )


def _joined(per_file: Sequence[Names], part: int) -> list:
    return list(chain.from_iterable(names[part] for names in per_file))


def changed_files(old: NameTables, paths: Sequence[str], digests: Sequence[str]) -> list[int]:
    """Indexes into `paths` of the files the old tables do not hold with these bytes."""
    held = dict(zip(old.paths, old.digests, strict=True))
    return [i for i, (path, digest) in enumerate(zip(paths, digests, strict=True)) if held.get(path) != digest]


def patched_tables(
    old: NameTables, paths: list[str], digests: list[str], names_of: Callable[[str], Names]
) -> NameTables:
    """The tables of `paths`: the old tables' rows for the files whose digest is unchanged, names_of(path)
    for the others (new, edited or renamed). Equal to tables_from_files over every file."""
    changed = set(changed_files(old, paths, digests))
    fresh = {i: _checked(names_of(paths[i])) for i in sorted(changed)}
    # New names go into the vocabulary in their sorted places; the old ids shift past each one before them.
    spelled = {name for defined, _, refs, _ in fresh.values() for name in (*defined, *refs)}
    added = sorted(n for n in spelled if (at := bisect_left(old.vocab, n)) == len(old.vocab) or old.vocab[at] != n)
    places = [bisect_left(old.vocab, name) for name in added]
    shift = np.cumsum(np.bincount(_ints(places), minlength=len(old.vocab) + 1)[:-1]) if added else 0
    old_to_new = np.arange(len(old.vocab), dtype=np.int64) + shift
    vocab = old.vocab + added
    vocab.sort()
    ids = {name: place + k for k, (name, place) in enumerate(zip(added, places, strict=True))}

    def id_of(name: str) -> int:
        found = ids.get(name)
        return int(old_to_new[bisect_left(old.vocab, name)]) if found is None else found

    old_at = {path: i for i, path in enumerate(old.paths)}
    def_ends, ref_ends = np.cumsum(old.def_sizes), np.cumsum(old.ref_sizes)
    def_vocab, ref_vocab = old_to_new[old.def_vocab], old_to_new[old.ref_vocab]
    parts: dict[str, list[np.ndarray]] = {name: [] for name in ("dv", "ds", "rv", "rc")}
    def_sizes, ref_sizes = [], []
    for i, path in enumerate(paths):
        if i in fresh:
            defined, starts, refs, counts = fresh[i]
            segments = (
                _ints([id_of(n) for n in defined]),
                _ints(starts),
                _ints([id_of(n) for n in refs]),
                _ints(counts),
            )
        else:
            j = old_at[path]
            d0, d1 = def_ends[j] - old.def_sizes[j], def_ends[j]
            r0, r1 = ref_ends[j] - old.ref_sizes[j], ref_ends[j]
            segments = (def_vocab[d0:d1], old.def_start[d0:d1], ref_vocab[r0:r1], old.ref_count[r0:r1])
        for name, segment in zip(parts, segments, strict=True):
            parts[name].append(segment)
        def_sizes.append(len(segments[0]))
        ref_sizes.append(len(segments[2]))
    joined = {name: np.concatenate(arrays) if arrays else _ints([]) for name, arrays in parts.items()}
    # Names no file spells any more leave the vocabulary, as a cold build would never have them.
    spelled_ids = np.concatenate([joined["dv"], joined["rv"]])
    kept = np.flatnonzero(np.bincount(spelled_ids, minlength=len(vocab)) > 0)
    renumber = np.full(len(vocab), -1, dtype=np.int64)
    renumber[kept] = np.arange(len(kept))
    return NameTables(
        paths=list(paths),
        digests=list(digests),
        vocab=[vocab[i] for i in kept.tolist()],
        def_sizes=_ints(def_sizes),
        def_vocab=renumber[joined["dv"]],
        def_start=joined["ds"].astype(np.int64),
        ref_sizes=_ints(ref_sizes),
        ref_vocab=renumber[joined["rv"]],
        ref_count=joined["rc"].astype(np.int64),
    )
