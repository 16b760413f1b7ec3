from pathlib import Path

from stockroom.cli.main import run
from stockroom.inventory.stock import Warehouse

CSV = "sku,name,price\nAB-1001,Oak shelf,24.90\nAB-1002,Pine shelf,18.90\n"


def test_lists_products_to_reorder(tmp_path: Path) -> None:
    products = tmp_path / "p.csv"
    products.write_text(CSV)
    warehouse = Warehouse("main")
    warehouse.receive("AB-1001", 4)
    lines = run(["low-stock", str(products)], warehouse).splitlines()
    assert lines[0].split() == ["sku", "on", "hand", "reorder", "at"]
    assert [line.split()[0] for line in lines[2:]] == ["AB-1002"]
    assert lines[2].split()[1:] == ["0", "0"]


def test_nothing_to_reorder(tmp_path: Path) -> None:
    products = tmp_path / "p.csv"
    products.write_text(CSV)
    warehouse = Warehouse("main")
    warehouse.receive("AB-1001", 1)
    warehouse.receive("AB-1002", 1)
    assert run(["low-stock", str(products)], warehouse) == "nothing to reorder"
