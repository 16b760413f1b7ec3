"""Invoice numbers: PREFIX-YEAR-NNNN, counting from 1 again every year."""

import re

_NUMBER = re.compile(r"^(?P<prefix>[A-Z]+)-(?P<year>\d{4})-(?P<seq>\d{4,})$")


def format_number(prefix: str, year: int, seq: int) -> str:
    return f"{prefix}-{year}-{seq:04d}"


def parse_number(number: str) -> tuple[str, int, int]:
    match = _NUMBER.match(number)
    if not match:
        raise ValueError(f"not an invoice number: {number!r}")
    return match["prefix"], int(match["year"]), int(match["seq"])


def next_number(existing: list[str], prefix: str, year: int) -> str:
    """The number after the highest one of `year` among `existing`."""
    used = [seq for p, y, seq in map(parse_number, existing) if p == prefix and y == year]
    return format_number(prefix, year, max(used, default=0) + 1)
