import re
import unicodedata


def words(text: str) -> set[str]:
    """The lower-case words of a text, accents removed."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return set(re.findall(r"[a-z0-9]+", plain.lower()))


def truncate(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"
