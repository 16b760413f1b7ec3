"""Sales tax per region, in percent."""

RATES = {
    "DE": 19.0,
    "FR": 20.0,
    "NL": 21.0,
    "AT": 20.0,
    "LU": 17.0,
}


def rate_for(region: str) -> float:
    """The tax rate of a region; an unknown region pays none (exports)."""
    return RATES.get(region.strip().upper(), 0.0)
