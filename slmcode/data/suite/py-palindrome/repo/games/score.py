from games.words import is_anagram, is_palindrome


def score(word: str, other: str = "") -> int:
    points = 0
    if is_palindrome(word):
        points += 2
    if other and is_anagram(word, other):
        points += 1
    return points
