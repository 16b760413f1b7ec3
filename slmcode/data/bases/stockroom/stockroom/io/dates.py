"""Dates as people type them in the shop: 2024-03-01, 01.03.2024 or 1/3/2024 (day first)."""

import re
from datetime import date

_ISO = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
_DOTTED = re.compile(r"^(\d{1,2})[./](\d{1,2})[./](\d{4})$")


def parse_date(text: str) -> date:
    text = text.strip()
    if m := _ISO.match(text):
        return date(int(m[1]), int(m[2]), int(m[3]))
    if m := _DOTTED.match(text):
        return date(int(m[3]), int(m[2]), int(m[1]))
    raise ValueError(f"not a date: {text!r}")


def month_key(day: date) -> str:
    """'2024-03' for any day of March 2024."""
    return f"{day.year:04d}-{day.month:02d}"
