from stockroom.sales.discounts import Discount
from stockroom.sales.invoice import InvoiceLine


def test_the_second_discount_comes_off_what_the_first_left() -> None:
    assert InvoiceLine("AB-1001", 1, 10000, [Discount(percent=10), Discount(percent=20)]).net_cents == 7200
