from stockroom.money import format_cents, percent_of, to_cents


def test_to_cents_rounds_half_up() -> None:
    assert to_cents("12.345") == 1235
    assert to_cents(3) == 300


def test_percent_of() -> None:
    assert percent_of(1000, 19) == 190
    assert percent_of(5, 50) == 3


def test_format_cents() -> None:
    assert format_cents(123456) == "1,234.56 EUR"
    assert format_cents(-5, "USD") == "-0.05 USD"
