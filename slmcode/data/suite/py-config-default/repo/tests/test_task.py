from app.settings import Settings


def test_a_missing_key_gives_the_callers_default() -> None:
    assert Settings("colour = red").get("size", "m") == "m"
