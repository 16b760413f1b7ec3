"""Stock keeping units look like 'AB-1234': two letters, a dash, four digits."""

import re

from stockroom.errors import InvalidSku

_SKU = re.compile(r"^[A-Z]{2}-\d{4}$")


def normalize_sku(raw: str) -> str:
    """The canonical spelling of a SKU typed by a person: trimmed, upper case, a dash after the letters."""
    text = raw.strip().upper().replace(" ", "")
    if len(text) == 6 and text[:2].isalpha():
        text = f"{text[:2]}-{text[2:]}"
    if not _SKU.match(text):
        raise InvalidSku(f"not a SKU: {raw!r}")
    return text


def is_valid_sku(raw: str) -> bool:
    try:
        normalize_sku(raw)
    except InvalidSku:
        return False
    return True
