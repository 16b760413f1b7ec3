from timer.timeparse import parse_duration


def test_hours() -> None:
    assert parse_duration("2h") == 7200
