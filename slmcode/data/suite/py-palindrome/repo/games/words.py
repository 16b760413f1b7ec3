def is_palindrome(text: str) -> bool:
    return text == text[::-1]


def is_anagram(a: str, b: str) -> bool:
    return sorted(a.replace(" ", "").lower()) == sorted(b.replace(" ", "").lower())
