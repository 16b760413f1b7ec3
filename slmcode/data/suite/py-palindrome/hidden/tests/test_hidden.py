from games.score import score
from games.words import is_palindrome


def test_sentence() -> None:
    assert is_palindrome("A man, a plan, a canal: Panama")


def test_not_palindrome() -> None:
    assert not is_palindrome("hello")


def test_score_uses_it() -> None:
    assert score("Racecar") == 2
