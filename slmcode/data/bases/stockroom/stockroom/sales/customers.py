from dataclasses import dataclass


@dataclass
class Customer:
    id: str
    name: str
    region: str = "DE"
    email: str = ""
    payment_terms_days: int | None = None  # None: the shop's default terms

    def terms(self, default_days: int) -> int:
        return default_days if self.payment_terms_days is None else self.payment_terms_days
