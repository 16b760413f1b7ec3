from calc import ops


def test_add() -> None:
    assert ops.add(2, 3) == 5


def test_subtract() -> None:
    assert ops.subtract(5, 3) == 2


def test_multiply() -> None:
    assert ops.multiply(4, 3) == 12
