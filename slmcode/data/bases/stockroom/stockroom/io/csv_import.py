"""Reading the product list a supplier sends as CSV: sku,name,price,unit,category (a header line first)."""

import csv
import io

from stockroom.catalog.product import Product
from stockroom.errors import ImportFailed, InvalidSku
from stockroom.money import to_cents

REQUIRED = ("sku", "name", "price")


def parse_products(text: str) -> list[Product]:
    rows = list(csv.DictReader(io.StringIO(text)))
    products = []
    for number, row in enumerate(rows, start=2):
        missing = [c for c in REQUIRED if not (row.get(c) or "").strip()]
        if missing:
            raise ImportFailed(f"line {number}: missing {', '.join(missing)}")
        try:
            products.append(Product(row["sku"], row["name"].strip(), to_cents(row["price"]),
                                    unit=(row.get("unit") or "pcs").strip(),
                                    category=(row.get("category") or "general").strip()))
        except InvalidSku as bad:
            raise ImportFailed(f"line {number}: {bad}") from None
    return products


def load_products(path: str) -> list[Product]:
    with open(path, encoding="utf-8") as handle:
        return parse_products(handle.read())
