"""A log of every change of stock, so quantities can be explained and replayed."""

from dataclasses import dataclass
from datetime import date

from stockroom.inventory.stock import Warehouse

KINDS = ("receive", "ship", "adjust")


@dataclass(frozen=True)
class Movement:
    day: date
    sku: str
    kind: str
    quantity: int
    note: str = ""


class MovementLog:
    def __init__(self) -> None:
        self.entries: list[Movement] = []

    def record(self, movement: Movement) -> None:
        if movement.kind not in KINDS:
            raise ValueError(f"unknown movement kind {movement.kind!r}")
        self.entries.append(movement)

    def for_sku(self, sku: str) -> list[Movement]:
        return [m for m in self.entries if m.sku == sku]

    def between(self, start: date, end: date) -> list[Movement]:
        return [m for m in self.entries if start <= m.day <= end]

    def replay(self, warehouse: Warehouse) -> Warehouse:
        for m in sorted(self.entries, key=lambda m: m.day):
            if m.kind == "receive" or (m.kind == "adjust" and m.quantity > 0):
                warehouse.receive(m.sku, abs(m.quantity))
            else:
                warehouse.take(m.sku, abs(m.quantity))
        return warehouse
