from store.pricing import subtotal, with_tax


class Cart:
    def __init__(self) -> None:
        self.prices: list[float] = []

    def add(self, price: float) -> None:
        self.prices.append(price)

    def checkout(self, tax_rate: float = 0.0) -> float:
        return with_tax(subtotal(self.prices), tax_rate)
