from wordcount import count_words


def test_words_are_counted_whatever_their_case() -> None:
    assert count_words("The cat and the hat") == {"the": 2, "cat": 1, "and": 1, "hat": 1}
