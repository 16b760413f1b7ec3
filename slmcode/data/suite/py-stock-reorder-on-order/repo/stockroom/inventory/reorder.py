"""When to order more, and how much."""

from stockroom.catalog.product import Product
from stockroom.inventory.stock import Warehouse


def available(warehouse: Warehouse, sku: str) -> int:
    """What the shop has to sell from."""
    return warehouse.on_hand(sku)


def needs_reorder(product: Product, warehouse: Warehouse) -> bool:
    return available(warehouse, product.sku) <= product.reorder_point


def suggest_orders(products: list[Product], warehouse: Warehouse) -> dict[str, int]:
    """SKU -> quantity to order for every product at or below its reorder point."""
    orders = {}
    for product in products:
        if product.reorder_quantity and needs_reorder(product, warehouse):
            shortfall = product.reorder_point - available(warehouse, product.sku)
            orders[product.sku] = max(product.reorder_quantity, shortfall)
    return orders
