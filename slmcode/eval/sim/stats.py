"""The comparison's statistics, over paired outcomes: two agents (or two settings of the harness) run on the same
(task, seed) pairs, so their difference is measured pair by pair. A solve rate gets a Wilson interval; a
difference gets a paired bootstrap interval and McNemar's exact test on the pairs where only one solved."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959964
BOOTSTRAP_DRAWS = 4000
BOOTSTRAP_SEED = 31  # the intervals are part of the table: the same outcomes print the same interval


def wilson(solved: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a solve rate (sound at 0/n and n/n, unlike the normal one)."""
    if n == 0:
        return 0.0, 0.0
    p = solved / n
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mcnemar_p(only_a: int, only_b: int) -> float:
    """McNemar's exact two-sided p-value: the discordant pairs as a fair coin's flips."""
    n = only_a + only_b
    if n == 0:
        return 1.0
    k = min(only_a, only_b)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


@dataclass(frozen=True)
class Paired:
    diff: float  # rate of a minus rate of b, over the pairs
    low: float
    high: float
    only_a: int
    only_b: int
    p: float


def paired(a: Sequence[bool], b: Sequence[bool]) -> Paired:
    """a vs b over the same pairs, in the same order: the difference, its 95% bootstrap interval, McNemar."""
    if len(a) != len(b):
        raise ValueError("paired outcomes must be over the same pairs")
    n = len(a)
    if n == 0:
        return Paired(0.0, 0.0, 0.0, 0, 0, 1.0)
    diffs = [int(x) - int(y) for x, y in zip(a, b, strict=True)]
    rng = random.Random(BOOTSTRAP_SEED)
    means = sorted(sum(diffs[rng.randrange(n)] for _ in range(n)) / n for _ in range(BOOTSTRAP_DRAWS))
    low, high = means[int(0.025 * BOOTSTRAP_DRAWS)], means[int(0.975 * BOOTSTRAP_DRAWS) - 1]
    only_a, only_b = diffs.count(1), diffs.count(-1)
    return Paired(sum(diffs) / n, low, high, only_a, only_b, mcnemar_p(only_a, only_b))
