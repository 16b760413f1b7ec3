from stockroom.catalog.catalog import Catalog
from stockroom.inventory.stock import Warehouse
from stockroom.money import format_cents
from stockroom.reports.table import render


def stock_rows(catalog: Catalog, warehouse: Warehouse) -> list[list[str]]:
    rows = []
    for product in catalog:
        quantity = warehouse.on_hand(product.sku)
        rows.append([product.sku, product.name, str(quantity), product.unit,
                     format_cents(quantity * product.price_cents)])
    return rows


def stock_report(catalog: Catalog, warehouse: Warehouse) -> str:
    total = sum(warehouse.on_hand(p.sku) * p.price_cents for p in catalog)
    table = render(["sku", "name", "qty", "unit", "value"], stock_rows(catalog, warehouse))
    return f"{table}\ntotal value: {format_cents(total)}"
