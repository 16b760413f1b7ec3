from pathlib import Path

from stockroom.cli.main import run
from stockroom.inventory.stock import Warehouse


def test_nothing_to_reorder_is_said_plainly(tmp_path: Path) -> None:
    products = tmp_path / "p.csv"
    products.write_text("sku,name,price\nAB-1001,Oak shelf,24.90\n")
    warehouse = Warehouse("main")
    warehouse.receive("AB-1001", 1)
    assert run(["low-stock", str(products)], warehouse) == "nothing to reorder"
