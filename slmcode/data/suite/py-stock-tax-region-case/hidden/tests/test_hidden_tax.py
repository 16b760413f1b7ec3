from datetime import date

from stockroom.sales.customers import Customer
from stockroom.sales.invoice import Invoice, InvoiceLine


def invoice_for(region: str) -> Invoice:
    invoice = Invoice("INV-2024-0001", Customer("c1", "Ada", region=region), date(2024, 3, 1))
    invoice.add(InvoiceLine("AB-1001", 1, 10000))
    return invoice


def test_lower_case_region_is_taxed() -> None:
    assert invoice_for("de").tax_cents == 1900
    assert invoice_for(" fr").total_cents == 12000


def test_unknown_region_stays_tax_free() -> None:
    assert invoice_for("us").tax_cents == 0
    assert invoice_for("NL").tax_cents == 2100
