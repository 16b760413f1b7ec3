from stockroom.io.csv_import import parse_products


def test_a_quoted_name_keeps_its_comma() -> None:
    [product] = parse_products('sku,name,price\nAB-1003,"Hooks, steel",1.20\n')
    assert (product.name, product.price_cents) == ("Hooks, steel", 120)
