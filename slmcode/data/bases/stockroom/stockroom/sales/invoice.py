from dataclasses import dataclass, field
from datetime import date, timedelta

from stockroom.money import percent_of
from stockroom.sales.customers import Customer
from stockroom.sales.discounts import Discount, apply_discounts
from stockroom.sales.tax import rate_for

DEFAULT_TERMS_DAYS = 30


@dataclass
class InvoiceLine:
    sku: str
    quantity: int
    unit_price_cents: int
    discounts: list[Discount] = field(default_factory=list)

    @property
    def gross_cents(self) -> int:
        return self.quantity * self.unit_price_cents

    @property
    def net_cents(self) -> int:
        return apply_discounts(self.gross_cents, self.discounts)


@dataclass
class Invoice:
    number: str
    customer: Customer
    issued: date
    lines: list[InvoiceLine] = field(default_factory=list)

    def add(self, line: InvoiceLine) -> None:
        self.lines.append(line)

    @property
    def subtotal_cents(self) -> int:
        return sum(line.net_cents for line in self.lines)

    @property
    def tax_cents(self) -> int:
        return percent_of(self.subtotal_cents, rate_for(self.customer.region))

    @property
    def total_cents(self) -> int:
        return self.subtotal_cents + self.tax_cents

    @property
    def due(self) -> date:
        return self.issued + timedelta(days=self.customer.terms(DEFAULT_TERMS_DAYS))
