import re
from collections import Counter


def count_words(text: str) -> dict[str, int]:
    return dict(Counter(re.findall(r"[a-z0-9']+", text.lower())))
