from datetime import date

from stockroom.sales.customers import Customer
from stockroom.sales.invoice import Invoice, InvoiceLine
from stockroom.sales.payments import Payment, is_overdue


def invoice(customer: Customer) -> Invoice:
    inv = Invoice("INV-2024-0001", customer, date(2024, 1, 31))
    inv.add(InvoiceLine("AB-1001", 1, 10000))
    return inv


def test_default_terms_are_thirty_days() -> None:
    assert invoice(Customer("c1", "Ada")).due == date(2024, 3, 1)


def test_customer_terms_win() -> None:
    assert invoice(Customer("c2", "Bo", payment_terms_days=14)).due == date(2024, 2, 14)
    assert invoice(Customer("c3", "Cy", payment_terms_days=0)).due == date(2024, 1, 31)


def test_overdue_only_when_money_is_owed_after_the_due_date() -> None:
    inv = invoice(Customer("c2", "Bo", payment_terms_days=14))
    part = [Payment("INV-2024-0001", date(2024, 2, 1), 5000)]
    full = [*part, Payment("INV-2024-0001", date(2024, 2, 20), 6900)]
    assert not is_overdue(inv, part, date(2024, 2, 14))
    assert is_overdue(inv, part, date(2024, 2, 15))
    assert not is_overdue(inv, full, date(2024, 3, 1))
