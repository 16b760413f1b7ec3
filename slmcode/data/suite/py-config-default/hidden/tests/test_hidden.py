from app.main import greeting
from app.settings import Settings


def test_missing_key_gives_default() -> None:
    assert Settings("a = 1").get("b", "x") == "x"


def test_missing_key_without_default_is_none() -> None:
    assert Settings("").get("b") is None


def test_present_key_wins() -> None:
    assert Settings("name = ada").get("name", "x") == "ada"


def test_greeting_falls_back() -> None:
    assert greeting(Settings("")) == "hello world"
