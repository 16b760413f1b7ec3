"""Text helpers for the blog."""

import re


def slugify(title: str) -> str:
    return "-".join(re.findall(r"[a-z0-9]+", title.lower()))


def excerpt(body: str, words: int = 20) -> str:
    parts = body.split()
    return " ".join(parts[:words]) + ("..." if len(parts) > words else "")
