from games.words import is_palindrome


def test_case_spaces_and_punctuation_are_ignored() -> None:
    assert is_palindrome("Never odd or even!")
