"""Finding products by words of their name, their tags or their SKU."""

from stockroom.catalog.catalog import Catalog
from stockroom.catalog.product import Product
from stockroom.util.text import words


def matches(product: Product, query: str) -> bool:
    wanted = words(query)
    haystack = words(product.name) | {t.lower() for t in product.tags} | {product.sku.lower()}
    return wanted <= haystack


def search(catalog: Catalog, query: str, limit: int = 20) -> list[Product]:
    """Products whose name, tags or SKU hold every word of `query`, cheapest first."""
    found = [p for p in catalog if matches(p, query)]
    found.sort(key=lambda p: (p.price_cents, p.sku))
    return found[:limit]
