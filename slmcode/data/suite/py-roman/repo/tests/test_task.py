from numerals import to_roman


def test_the_example_from_the_request() -> None:
    assert to_roman(1994) == "MCMXCIV"
