from datetime import date

from stockroom.sales.customers import Customer
from stockroom.sales.invoice import Invoice, InvoiceLine


def test_totals_with_tax() -> None:
    invoice = Invoice("INV-2024-0001", Customer("c1", "Ada", region="DE"), date(2024, 3, 1))
    invoice.add(InvoiceLine("AB-1001", 2, 1000))
    assert invoice.subtotal_cents == 2000
    assert invoice.tax_cents == 380
    assert invoice.total_cents == 2380
