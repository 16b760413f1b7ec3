from shop.models import Item
from shop.report import report, total_value


def test_default_discount_is_zero() -> None:
    assert Item("pen", 2.0, 1).discount == 0


def test_total_uses_discount() -> None:
    items = [Item("pen", 2.0, 5, discount=0.5), Item("pad", 4.0, 1)]
    assert total_value(items) == 9.0


def test_report_shows_discounted_total() -> None:
    assert report([Item("ink", 10.0, 2, discount=0.25)]).endswith("total: 15.00")
