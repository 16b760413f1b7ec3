from collections import Counter


def count_words(text: str) -> dict[str, int]:
    return dict(Counter(text.split()))
