from convert import fahrenheit_to_celsius


def test_freezing() -> None:
    assert fahrenheit_to_celsius(32) == 0


def test_rounding() -> None:
    assert fahrenheit_to_celsius(100) == 37.78
