from store.pricing import subtotal


class Cart:
    def __init__(self) -> None:
        self.prices: list[float] = []

    def add(self, price: float) -> None:
        self.prices.append(price)

    def checkout(self) -> float:
        return subtotal(self.prices)
