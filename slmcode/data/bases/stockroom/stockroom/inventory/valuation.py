"""What the stock on hand is worth, first in first out."""

from collections import deque
from dataclasses import dataclass


@dataclass
class Lot:
    quantity: int
    unit_cost_cents: int


class FifoLedger:
    def __init__(self) -> None:
        self._lots: dict[str, deque[Lot]] = {}

    def buy(self, sku: str, quantity: int, unit_cost_cents: int) -> None:
        self._lots.setdefault(sku, deque()).append(Lot(quantity, unit_cost_cents))

    def sell(self, sku: str, quantity: int) -> int:
        """Take `quantity` from the oldest lots; returns the cost of what was sold."""
        lots = self._lots.get(sku, deque())
        cost = 0
        while quantity > 0:
            if not lots:
                raise ValueError(f"selling more {sku} than was bought")
            lot = lots[0]
            used = min(lot.quantity, quantity)
            cost += used * lot.unit_cost_cents
            lot.quantity -= used
            quantity -= used
            if lot.quantity == 0:
                lots.popleft()
        return cost

    def value(self, sku: str | None = None) -> int:
        skus = [sku] if sku else list(self._lots)
        return sum(l.quantity * l.unit_cost_cents for s in skus for l in self._lots.get(s, ()))
