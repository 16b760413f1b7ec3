from stockroom.catalog.product import Product
from stockroom.catalog.catalog import Catalog

__all__ = ["Catalog", "Product"]
