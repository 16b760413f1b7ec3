from stockroom.catalog import Catalog, Product
from stockroom.catalog.search import search


def catalog() -> Catalog:
    return Catalog([Product("CD-2001", "Potting soil", 80, unit="kg", category="garden/soil"),
                    Product("CD-2002", "Lawn seed", 620, unit="kg", category="garden/seed"),
                    Product("AB-1001", "Oak shelf", 2490, category="furniture")])


def test_category_words_are_searched() -> None:
    assert [p.sku for p in search(catalog(), "garden")] == ["CD-2001", "CD-2002"]
    assert [p.sku for p in search(catalog(), "seed")] == ["CD-2002"]


def test_category_combines_with_name_words() -> None:
    assert [p.sku for p in search(catalog(), "garden lawn")] == ["CD-2002"]
    assert search(catalog(), "garden shelf") == []
