"""Iteration helpers."""

from collections.abc import Iterable, Iterator


def pairs(items: Iterable) -> Iterator[tuple]:
    it = iter(items)
    return zip(it, it)


def chunk(items: Iterable, size: int) -> Iterator[list]:
    if size < 1:
        raise ValueError("size must be at least 1")
    batch = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch
