def subtotal(prices: list[float]) -> float:
    return round(sum(prices), 2)


def with_tax(amount: float, tax_rate: float = 0.0) -> float:
    return round(amount * (1 + tax_rate), 2)
