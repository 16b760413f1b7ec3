"""Number formatting."""


def to_roman(n: int) -> str:
    raise NotImplementedError
