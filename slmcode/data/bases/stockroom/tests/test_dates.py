from datetime import date

from stockroom.io.dates import month_key, parse_date


def test_parse_formats() -> None:
    assert parse_date("2024-03-01") == date(2024, 3, 1)
    assert parse_date("01.03.2024") == date(2024, 3, 1)


def test_month_key() -> None:
    assert month_key(date(2024, 3, 9)) == "2024-03"
