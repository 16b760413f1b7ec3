import pytest

from stockroom.catalog import Catalog, Product
from stockroom.catalog.search import search
from stockroom.errors import UnknownProduct


def sample() -> Catalog:
    return Catalog([Product("AB-1001", "Oak shelf", 2490, tags={"wood"}),
                    Product("AB-1002", "Pine shelf", 1890, tags={"wood"}),
                    Product("CD-2001", "Potting soil", 80, unit="kg", category="garden")])


def test_get_and_unknown() -> None:
    catalog = sample()
    assert catalog.get("AB-1001").name == "Oak shelf"
    with pytest.raises(UnknownProduct):
        catalog.get("ZZ-9999")


def test_search_by_words_cheapest_first() -> None:
    assert [p.sku for p in search(sample(), "shelf")] == ["AB-1002", "AB-1001"]
    assert [p.sku for p in search(sample(), "wood oak")] == ["AB-1001"]
