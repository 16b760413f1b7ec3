import csv
import io

from stockroom.catalog.product import Product


def products_to_csv(products: list[Product]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["sku", "name", "price", "unit", "category"])
    for p in products:
        writer.writerow([p.sku, p.name, f"{p.price_cents / 100:.2f}", p.unit, p.category])
    return out.getvalue()
