"""The one search every budgeted rendering uses: the most of something (lines, symbols) that still fits."""

from __future__ import annotations

from collections.abc import Callable


def largest_fitting(low: int, high: int, fits: Callable[[int], bool]) -> int:
    """The largest n in [low, high] with fits(n), given that fits is monotone and `low` is known to fit
    (or is the answer when nothing larger does). A binary search: O(log n) renderings and counts."""
    while low < high:
        middle = (low + high + 1) // 2
        if fits(middle):
            low = middle
        else:
            high = middle - 1
    return low
