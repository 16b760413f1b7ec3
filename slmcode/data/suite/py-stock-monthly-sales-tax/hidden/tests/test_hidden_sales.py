from datetime import date

from stockroom.reports.sales_report import best_month, sales_by_month
from stockroom.sales.customers import Customer
from stockroom.sales.invoice import Invoice, InvoiceLine


def invoice(day: date, cents: int, region: str = "DE") -> Invoice:
    inv = Invoice(f"INV-{day.year}-0001", Customer("c1", "Ada", region=region), day)
    inv.add(InvoiceLine("AB-1001", 1, cents))
    return inv


def test_months_hold_full_totals() -> None:
    invoices = [invoice(date(2024, 3, 2), 10000), invoice(date(2024, 3, 30), 1000, "FR"),
                invoice(date(2024, 4, 1), 500, "US")]
    assert sales_by_month(invoices) == {"2024-03": 11900 + 1200, "2024-04": 500}


def test_best_month_uses_totals() -> None:
    invoices = [invoice(date(2024, 1, 5), 10000, "US"), invoice(date(2024, 2, 5), 9000, "DE")]
    assert best_month(invoices) == "2024-02"
