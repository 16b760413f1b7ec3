"""Unit conversions."""


def celsius_to_fahrenheit(c: float) -> float:
    return round(c * 9 / 5 + 32, 2)


def km_to_miles(km: float) -> float:
    return round(km * 0.621371, 2)
