from stockroom.units import convert


def test_pounds_to_kilograms() -> None:
    assert convert(1, "lb", "kg") == 0.454
    assert convert(10, "lb", "kg") == 4.536


def test_pounds_and_ounces() -> None:
    assert convert(1, "lb", "oz") == 16.0
    assert convert(2, "kg", "lb") == 4.409
