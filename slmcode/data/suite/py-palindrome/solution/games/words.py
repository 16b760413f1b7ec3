def is_palindrome(text: str) -> bool:
    letters = [c for c in text.lower() if c.isalnum()]
    return letters == letters[::-1]


def is_anagram(a: str, b: str) -> bool:
    return sorted(a.replace(" ", "").lower()) == sorted(b.replace(" ", "").lower())
