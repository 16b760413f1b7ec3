from convert import fahrenheit_to_celsius


def test_boiling_point() -> None:
    assert fahrenheit_to_celsius(212) == 100
