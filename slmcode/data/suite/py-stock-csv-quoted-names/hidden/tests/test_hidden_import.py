from pathlib import Path

from stockroom.io.csv_import import load_products, parse_products


def test_quoted_name_with_a_comma() -> None:
    text = 'sku,name,price,unit,category\nAB-1002,"Screws, brass (100)",3.45,pcs,hardware\n'
    [product] = parse_products(text)
    assert product.name == "Screws, brass (100)"
    assert product.price_cents == 345
    assert product.category == "hardware"


def test_the_sample_file_loads() -> None:
    products = load_products(str(Path(__file__).resolve().parents[1] / "data" / "sample_products.csv"))
    assert [p.price_cents for p in products] == [2490, 345, 80, 620]
