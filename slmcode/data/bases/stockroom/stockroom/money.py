"""Money as integer cents, so sums never drift."""

from decimal import ROUND_HALF_UP, Decimal


def to_cents(amount: str | float | int) -> int:
    """'12.30', 12.3 or 12 as cents, rounded half up."""
    value = Decimal(str(amount)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return int(value * 100)


def percent_of(cents: int, percent: float) -> int:
    """`percent` % of an amount in cents, rounded half up to a whole cent."""
    exact = Decimal(cents) * Decimal(str(percent)) / Decimal(100)
    return int(exact.quantize(Decimal("1"), rounding=ROUND_HALF_UP))


def format_cents(cents: int, currency: str = "EUR") -> str:
    sign = "-" if cents < 0 else ""
    whole, rest = divmod(abs(cents), 100)
    return f"{sign}{whole:,}.{rest:02d} {currency}"
