from shop.models import Item
from shop.report import total_value


def test_total() -> None:
    assert total_value([Item("pen", 1.5, 4), Item("pad", 3.0, 1)]) == 9.0
