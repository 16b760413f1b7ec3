from pathlib import Path

from stockroom.catalog import Catalog, Product
from stockroom.cli.main import run


def test_lookup_in_lower_case() -> None:
    catalog = Catalog([Product("AB-1001", "Oak shelf", 2490)])
    assert catalog.get("ab-1001").name == "Oak shelf"
    assert "ab1001" in catalog


def test_price_command_in_lower_case(tmp_path: Path) -> None:
    products = tmp_path / "p.csv"
    products.write_text("sku,name,price\ncd-2001,Potting soil,0.80\n")
    assert run(["price", str(products), "cd2001"]) == "CD-2001 Potting soil: 0.80 EUR per pcs"
