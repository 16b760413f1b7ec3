from dataclasses import dataclass, field

from stockroom.catalog.sku import normalize_sku


@dataclass
class Product:
    sku: str
    name: str
    price_cents: int
    unit: str = "pcs"
    category: str = "general"
    tags: set[str] = field(default_factory=set)
    reorder_point: int = 0
    reorder_quantity: int = 0

    def __post_init__(self) -> None:
        self.sku = normalize_sku(self.sku)
