"""Moving stock from one warehouse to another."""

from dataclasses import dataclass

from stockroom.inventory.stock import Warehouse


@dataclass(frozen=True)
class Transfer:
    sku: str
    quantity: int
    source: str
    target: str


def transfer(source: Warehouse, target: Warehouse, sku: str, quantity: int) -> Transfer:
    """Move `quantity` of `sku`; nothing moves when the source has too little."""
    source.take(sku, quantity)
    target.receive(sku, quantity)
    return Transfer(sku, quantity, source.name, target.name)
