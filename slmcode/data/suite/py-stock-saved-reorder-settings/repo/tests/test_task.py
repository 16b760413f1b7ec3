from stockroom.catalog import Catalog, Product
from stockroom.inventory.stock import Warehouse
from stockroom.io.json_store import dump, load


def test_a_saved_reorder_point_comes_back() -> None:
    catalog = Catalog([Product("AB-1001", "Oak shelf", 2490, reorder_point=4, reorder_quantity=8)])
    loaded, _ = load(dump(catalog, Warehouse("main")))
    assert loaded.get("AB-1001").reorder_point == 4
