from stockroom.catalog.catalog import Catalog
from stockroom.inventory.reorder import needs_reorder
from stockroom.inventory.stock import Warehouse


def low_stock(catalog: Catalog, warehouse: Warehouse) -> list[tuple[str, int, int]]:
    """(sku, on hand, reorder point) of every product that needs ordering, by SKU."""
    return [(p.sku, warehouse.on_hand(p.sku), p.reorder_point)
            for p in catalog if needs_reorder(p, warehouse)]
