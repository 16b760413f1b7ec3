from convert import celsius_to_fahrenheit


def test_boiling() -> None:
    assert celsius_to_fahrenheit(100) == 212
