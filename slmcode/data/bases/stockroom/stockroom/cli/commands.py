"""What each command prints. Every function returns the text, so tests need no terminal."""

from stockroom.catalog.catalog import Catalog
from stockroom.catalog.search import search
from stockroom.cli.format import money_cell
from stockroom.inventory.stock import Warehouse
from stockroom.io.csv_import import load_products
from stockroom.reports.low_stock import low_stock
from stockroom.reports.stock_report import stock_report
from stockroom.reports.table import render


def load_catalog(path: str) -> Catalog:
    return Catalog(load_products(path))


def cmd_stock(catalog: Catalog, warehouse: Warehouse) -> str:
    return stock_report(catalog, warehouse)


def cmd_find(catalog: Catalog, query: str) -> str:
    found = search(catalog, query)
    if not found:
        return f"nothing matches {query!r}"
    return render(["sku", "name", "price"], [[p.sku, p.name, money_cell(p.price_cents)] for p in found])


def cmd_price(catalog: Catalog, sku: str) -> str:
    product = catalog.get(sku)
    return f"{product.sku} {product.name}: {money_cell(product.price_cents)} per {product.unit}"


def cmd_low_stock(catalog: Catalog, warehouse: Warehouse) -> str:
    rows = [[sku, str(on_hand), str(point)] for sku, on_hand, point in low_stock(catalog, warehouse)]
    if not rows:
        return "nothing to reorder"
    return render(["sku", "on hand", "reorder at"], rows)
