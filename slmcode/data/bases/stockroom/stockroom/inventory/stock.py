from stockroom.catalog.sku import normalize_sku
from stockroom.errors import InsufficientStock


class Warehouse:
    """Quantities on hand per SKU in one place."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._on_hand: dict[str, int] = {}
        self._on_order: dict[str, int] = {}

    def on_hand(self, sku: str) -> int:
        return self._on_hand.get(normalize_sku(sku), 0)

    def on_order(self, sku: str) -> int:
        return self._on_order.get(normalize_sku(sku), 0)

    def receive(self, sku: str, quantity: int) -> None:
        if quantity <= 0:
            raise ValueError("quantity must be positive")
        key = normalize_sku(sku)
        self._on_hand[key] = self._on_hand.get(key, 0) + quantity
        self._on_order[key] = max(0, self._on_order.get(key, 0) - quantity)

    def take(self, sku: str, quantity: int) -> None:
        if quantity <= 0:
            raise ValueError("quantity must be positive")
        key = normalize_sku(sku)
        have = self._on_hand.get(key, 0)
        if quantity > have:
            raise InsufficientStock(f"{key}: {have} on hand in {self.name}, {quantity} wanted")
        self._on_hand[key] = have - quantity

    def order(self, sku: str, quantity: int) -> None:
        key = normalize_sku(sku)
        self._on_order[key] = self._on_order.get(key, 0) + quantity

    def skus(self) -> list[str]:
        return sorted(k for k, v in self._on_hand.items() if v > 0)
