from stockroom.units import convert


def test_one_pound_in_kilograms() -> None:
    assert convert(1, "lb", "kg") == 0.454
