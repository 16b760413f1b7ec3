from datetime import date

from stockroom.reports.sales_report import sales_by_month
from stockroom.sales.customers import Customer
from stockroom.sales.invoice import Invoice, InvoiceLine


def test_a_month_holds_the_invoices_totals_with_tax() -> None:
    invoice = Invoice("INV-2024-0001", Customer("c1", "Ada", region="DE"), date(2024, 6, 3))
    invoice.add(InvoiceLine("AB-1001", 1, 10000))
    assert sales_by_month([invoice]) == {"2024-06": invoice.total_cents}
