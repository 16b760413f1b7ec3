from listutil import flatten


def test_flatten() -> None:
    assert flatten([[1], [2, 3]]) == [1, 2, 3]
