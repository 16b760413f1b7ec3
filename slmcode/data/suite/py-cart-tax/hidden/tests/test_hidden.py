from store.cart import Cart
from store.pricing import with_tax


def test_with_tax() -> None:
    assert with_tax(10.0, 0.2) == 12.0
    assert with_tax(9.99, 0.075) == 10.74


def test_checkout_with_tax() -> None:
    c = Cart()
    c.add(50.0)
    c.add(50.0)
    assert c.checkout(tax_rate=0.1) == 110.0
    assert c.checkout() == 100.0
