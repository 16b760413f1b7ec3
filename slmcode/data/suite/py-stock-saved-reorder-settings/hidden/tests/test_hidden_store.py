import json

from stockroom.catalog import Catalog, Product
from stockroom.inventory.stock import Warehouse
from stockroom.io.json_store import dump, load


def test_round_trip_keeps_reorder_settings() -> None:
    warehouse = Warehouse("main")
    warehouse.receive("AB-1001", 3)
    catalog = Catalog([Product("AB-1001", "Oak shelf", 2490, tags={"wood"}, reorder_point=5, reorder_quantity=12)])
    loaded, again = load(dump(catalog, warehouse))
    product = loaded.get("AB-1001")
    assert (product.reorder_point, product.reorder_quantity) == (5, 12)
    assert product.tags == {"wood"} and again.on_hand("AB-1001") == 3


def test_old_files_still_load() -> None:
    old = {"warehouse": "main", "on_hand": {}, "products": [
        {"sku": "AB-1001", "name": "Oak shelf", "price_cents": 2490, "unit": "pcs", "category": "general",
         "tags": []}]}
    catalog, _ = load(json.dumps(old))
    assert catalog.get("AB-1001").reorder_point == 0
