"""The SIMULATED model's random numbers, common to every arm: each draw is keyed by the task, the seed and the
decision it decides (what it decides and its ordinal in the run: the 2nd chance to recall an old_str wrongly,
the belief of attempt 1), never by the agent, the role or the request's turn. So the harness, the plain loop
and the peer protocols played with one seed meet the same luck at the same decision, and a paired comparison
pairs random numbers, not only task and seed numbers."""

from __future__ import annotations

import random
import threading


class Draws:
    """One (task, seed)'s stream of decisions; `log` keeps every draw as (decision, value) in order."""

    def __init__(self, task_id: str, seed: int) -> None:
        self.task_id, self.seed = task_id, seed
        self.count: dict[str, int] = {}
        self.log: list[tuple[str, float]] = []
        self._lock = threading.Lock()

    def draw(self, point: str) -> tuple[str, random.Random]:
        """The next decision of kind `point`: its key and a generator seeded by it (its first number is the
        draw that decides it; what follows picks how, e.g. which line is recalled wrongly)."""
        with self._lock:
            self.count[point] = self.count.get(point, 0) + 1
            key = f"{point}#{self.count[point]}"
        rng = random.Random(f"{self.task_id}|{self.seed}|{key}")
        return key, rng

    def uniform(self, point: str) -> tuple[str, float, random.Random]:
        key, rng = self.draw(point)
        value = rng.random()
        with self._lock:
            self.log.append((key, value))
        return key, value, rng
