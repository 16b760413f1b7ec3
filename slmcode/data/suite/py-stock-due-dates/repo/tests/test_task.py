from datetime import date

from stockroom.sales.customers import Customer
from stockroom.sales.invoice import Invoice


def test_an_invoice_is_due_thirty_days_after_it_was_issued() -> None:
    assert Invoice("INV-2024-0001", Customer("c1", "Ada"), date(2024, 5, 1)).due == date(2024, 5, 31)
