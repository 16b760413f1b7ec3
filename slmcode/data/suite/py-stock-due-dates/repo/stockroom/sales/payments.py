from dataclasses import dataclass
from datetime import date

from stockroom.sales.invoice import Invoice


@dataclass(frozen=True)
class Payment:
    invoice_number: str
    day: date
    amount_cents: int


def paid_cents(invoice: Invoice, payments: list[Payment]) -> int:
    return sum(p.amount_cents for p in payments if p.invoice_number == invoice.number)


def balance_due(invoice: Invoice, payments: list[Payment]) -> int:
    return invoice.total_cents - paid_cents(invoice, payments)
