from store.cart import Cart


def test_checkout_adds_the_tax() -> None:
    cart = Cart()
    cart.add(20.0)
    assert cart.checkout(tax_rate=0.2) == 24.0
