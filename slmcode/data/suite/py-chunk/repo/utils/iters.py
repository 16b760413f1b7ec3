"""Iteration helpers."""

from collections.abc import Iterable, Iterator


def pairs(items: Iterable) -> Iterator[tuple]:
    it = iter(items)
    return zip(it, it)
