"""Saving the catalog and stock levels as one JSON document."""

import json

from stockroom.catalog.catalog import Catalog
from stockroom.catalog.product import Product
from stockroom.inventory.stock import Warehouse


def dump(catalog: Catalog, warehouse: Warehouse) -> str:
    return json.dumps({
        "warehouse": warehouse.name,
        "products": [{"sku": p.sku, "name": p.name, "price_cents": p.price_cents, "unit": p.unit,
                      "category": p.category, "tags": sorted(p.tags), "reorder_point": p.reorder_point,
                      "reorder_quantity": p.reorder_quantity} for p in catalog],
        "on_hand": {sku: warehouse.on_hand(sku) for sku in warehouse.skus()},
    }, indent=2, sort_keys=True)


def load(text: str) -> tuple[Catalog, Warehouse]:
    data = json.loads(text)
    catalog = Catalog([Product(p["sku"], p["name"], p["price_cents"], p["unit"], p["category"], set(p["tags"]),
                               p.get("reorder_point", 0), p.get("reorder_quantity", 0))  # older files lack them
                       for p in data["products"]])
    warehouse = Warehouse(data["warehouse"])
    for sku, quantity in data["on_hand"].items():
        warehouse.receive(sku, quantity)
    return catalog, warehouse
