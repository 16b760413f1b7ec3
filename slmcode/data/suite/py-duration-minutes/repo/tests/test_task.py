from timer.timeparse import parse_duration


def test_hours_and_minutes_both_count() -> None:
    assert parse_duration("1h30m") == 5400
