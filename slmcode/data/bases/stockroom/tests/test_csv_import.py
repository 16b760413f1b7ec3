import pytest

from stockroom.errors import ImportFailed
from stockroom.io.csv_import import parse_products


def test_parse_simple_rows() -> None:
    products = parse_products("sku,name,price,unit\nAB-1001,Oak shelf,24.90,pcs\n")
    assert products[0].price_cents == 2490


def test_missing_price_names_the_line() -> None:
    with pytest.raises(ImportFailed, match="line 2"):
        parse_products("sku,name,price\nAB-1001,Oak shelf,\n")
