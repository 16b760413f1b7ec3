"""Units of measure a product is sold in, and conversion between units of the same kind."""

from stockroom.errors import StockroomError

# How many of the base unit (g for mass, ml for volume, pcs for count) one unit holds.
FACTORS = {
    "g": ("mass", 1.0),
    "kg": ("mass", 1000.0),
    "lb": ("mass", 0.45359237),
    "oz": ("mass", 28.349523125),
    "ml": ("volume", 1.0),
    "l": ("volume", 1000.0),
    "pcs": ("count", 1.0),
    "box": ("count", 12.0),
}


def convert(quantity: float, from_unit: str, to_unit: str) -> float:
    """`quantity` in `from_unit` expressed in `to_unit`, rounded to 3 decimals."""
    try:
        kind_from, factor_from = FACTORS[from_unit]
        kind_to, factor_to = FACTORS[to_unit]
    except KeyError as missing:
        raise StockroomError(f"unknown unit {missing}") from None
    if kind_from != kind_to:
        raise StockroomError(f"cannot convert {from_unit} to {to_unit}")
    return round(quantity * factor_from / factor_to, 3)
