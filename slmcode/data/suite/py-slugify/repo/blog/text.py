"""Text helpers for the blog."""


def slugify(title: str) -> str:
    return "-".join(title.lower().split(" "))


def excerpt(body: str, words: int = 20) -> str:
    parts = body.split()
    return " ".join(parts[:words]) + ("..." if len(parts) > words else "")
