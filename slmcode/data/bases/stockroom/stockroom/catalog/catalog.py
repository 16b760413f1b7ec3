from stockroom.catalog.product import Product
from stockroom.catalog.sku import normalize_sku
from stockroom.errors import UnknownProduct


class Catalog:
    """Every product the shop sells, by SKU."""

    def __init__(self, products: list[Product] | None = None) -> None:
        self._products: dict[str, Product] = {}
        for product in products or []:
            self.add(product)

    def add(self, product: Product) -> None:
        self._products[product.sku] = product

    def get(self, sku: str) -> Product:
        try:
            return self._products[normalize_sku(sku)]
        except KeyError:
            raise UnknownProduct(sku) from None

    def __contains__(self, sku: str) -> bool:
        try:
            self.get(sku)
        except Exception:
            return False
        return True

    def __iter__(self):
        return iter(sorted(self._products.values(), key=lambda p: p.sku))

    def __len__(self) -> int:
        return len(self._products)

    def in_category(self, category: str) -> list[Product]:
        return [p for p in self if p.category == category]
