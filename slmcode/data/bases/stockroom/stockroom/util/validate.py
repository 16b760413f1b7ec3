import re

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$", re.IGNORECASE)


def is_email(text: str) -> bool:
    return bool(_EMAIL.match(text.strip()))


def positive_int(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise ValueError(f"expected a positive number, got {text}")
    return value
