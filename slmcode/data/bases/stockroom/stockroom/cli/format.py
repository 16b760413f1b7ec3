from stockroom.money import format_cents


def money_cell(cents: int) -> str:
    return format_cents(cents)


def quantity_cell(quantity: int, unit: str) -> str:
    return f"{quantity} {unit}"
