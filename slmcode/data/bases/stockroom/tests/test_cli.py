from pathlib import Path

from stockroom.cli.main import run

CSV = "sku,name,price,unit\nAB-1001,Oak shelf,24.90,pcs\nAB-1002,Pine shelf,18.90,pcs\n"


def test_price_command(tmp_path: Path) -> None:
    products = tmp_path / "p.csv"
    products.write_text(CSV)
    assert run(["price", str(products), "AB-1001"]) == "AB-1001 Oak shelf: 24.90 EUR per pcs"


def test_find_command(tmp_path: Path) -> None:
    products = tmp_path / "p.csv"
    products.write_text(CSV)
    assert "Pine shelf" in run(["find", str(products), "pine"])
