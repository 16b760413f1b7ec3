from datetime import date

import pytest

from stockroom.io.dates import parse_date


def test_slashes_day_first() -> None:
    assert parse_date("5/3/2024") == date(2024, 3, 5)
    assert parse_date(" 05/03/2024 ") == date(2024, 3, 5)


def test_other_formats_still_work() -> None:
    assert parse_date("2024-03-05") == date(2024, 3, 5)
    assert parse_date("05.03.2024") == date(2024, 3, 5)
    with pytest.raises(ValueError):
        parse_date("2024/03/05")
