from datetime import date

from stockroom.sales.customers import Customer
from stockroom.sales.discounts import Discount
from stockroom.sales.invoice import Invoice, InvoiceLine


def test_second_percentage_comes_off_what_the_first_left() -> None:
    line = InvoiceLine("AB-1001", 1, 10000, [Discount(percent=10), Discount(percent=20)])
    assert line.net_cents == 7200


def test_invoice_total_with_stacked_discounts() -> None:
    invoice = Invoice("INV-2024-0003", Customer("c9", "Bo", region="XX"), date(2024, 5, 2))
    invoice.add(InvoiceLine("AB-1001", 2, 2500, [Discount(percent=50), Discount(percent=50)]))
    invoice.add(InvoiceLine("AB-1002", 1, 1000, [Discount(percent=10, amount_cents=100)]))
    assert invoice.total_cents == 1250 + 800


def test_a_single_discount_is_unchanged() -> None:
    assert InvoiceLine("AB-1001", 3, 1000, [Discount(percent=25)]).net_cents == 2250
