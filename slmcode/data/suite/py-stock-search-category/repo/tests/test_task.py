from stockroom.catalog import Catalog, Product
from stockroom.catalog.search import search


def test_a_category_word_finds_the_product() -> None:
    catalog = Catalog([Product("CD-2001", "Potting soil", 80, category="garden/soil")])
    assert [p.sku for p in search(catalog, "garden")] == ["CD-2001"]
