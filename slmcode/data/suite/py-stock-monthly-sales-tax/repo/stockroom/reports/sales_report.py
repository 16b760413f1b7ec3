"""Sales per month, from the invoices issued."""

from stockroom.io.dates import month_key
from stockroom.sales.invoice import Invoice


def sales_by_month(invoices: list[Invoice]) -> dict[str, int]:
    """'YYYY-MM' -> total of the month's invoices in cents (tax included), in month order."""
    totals: dict[str, int] = {}
    for invoice in invoices:
        key = month_key(invoice.issued)
        totals[key] = totals.get(key, 0) + invoice.subtotal_cents
    return dict(sorted(totals.items()))


def best_month(invoices: list[Invoice]) -> str | None:
    totals = sales_by_month(invoices)
    return max(totals, key=totals.get) if totals else None
