from wordcount import count_words


def test_case_is_ignored() -> None:
    assert count_words("The cat and the hat") == {"the": 2, "cat": 1, "and": 1, "hat": 1}


def test_punctuation_is_ignored() -> None:
    assert count_words("Stop. stop, STOP!") == {"stop": 3}
