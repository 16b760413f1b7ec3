def subtotal(prices: list[float]) -> float:
    return round(sum(prices), 2)
