from datetime import date

from stockroom.io.dates import parse_date


def test_a_date_with_slashes_is_day_first() -> None:
    assert parse_date("5/3/2024") == date(2024, 3, 5)
