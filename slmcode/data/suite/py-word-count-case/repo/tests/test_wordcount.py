from wordcount import count_words


def test_simple() -> None:
    assert count_words("a b a") == {"a": 2, "b": 1}
