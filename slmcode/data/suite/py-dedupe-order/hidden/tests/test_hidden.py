from listutil import dedupe


def test_order_is_kept() -> None:
    assert dedupe(["b", "a", "b", "c", "a"]) == ["b", "a", "c"]


def test_numbers() -> None:
    assert dedupe([3, 1, 3, 2, 1]) == [3, 1, 2]
