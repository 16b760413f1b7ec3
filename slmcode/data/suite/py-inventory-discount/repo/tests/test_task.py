from shop.models import Item
from shop.report import total_value


def test_the_total_uses_the_discounted_price() -> None:
    assert total_value([Item("pen", 4.0, 2, discount=0.25)]) == 6.0
