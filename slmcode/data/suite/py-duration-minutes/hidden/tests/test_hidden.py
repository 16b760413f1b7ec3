from timer.timeparse import parse_duration


def test_minutes() -> None:
    assert parse_duration("2m") == 120


def test_hours_and_minutes() -> None:
    assert parse_duration("1h30m") == 5400


def test_all_units() -> None:
    assert parse_duration("1h5m10s") == 3910
