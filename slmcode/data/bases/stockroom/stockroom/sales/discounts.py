"""Discounts on a line: a percentage off, an amount off, or both. Several percentages stack: each one is
taken from what the previous ones left, never from the original price."""

from dataclasses import dataclass

from stockroom.money import percent_of


@dataclass(frozen=True)
class Discount:
    percent: float = 0.0
    amount_cents: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.percent <= 100:
            raise ValueError("a discount's percent is between 0 and 100")


def apply_discounts(cents: int, discounts: list[Discount]) -> int:
    """The amount after every discount, in order; never below zero."""
    remaining = cents
    for discount in discounts:
        remaining -= percent_of(remaining, discount.percent)
        remaining -= discount.amount_cents
    return max(0, remaining)
