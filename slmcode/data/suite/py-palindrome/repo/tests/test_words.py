from games.words import is_anagram


def test_anagram() -> None:
    assert is_anagram("listen", "silent")
