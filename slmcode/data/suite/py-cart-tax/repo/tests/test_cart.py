from store.cart import Cart


def test_checkout() -> None:
    c = Cart()
    c.add(1.25)
    c.add(2.5)
    assert c.checkout() == 3.75
