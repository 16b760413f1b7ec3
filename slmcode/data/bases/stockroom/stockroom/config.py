"""Shop-wide settings with their defaults; a dict from a settings file overrides them."""

from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class Settings:
    currency: str = "EUR"
    default_region: str = "DE"
    payment_terms_days: int = 30
    invoice_prefix: str = "INV"
    low_stock_margin: int = 0
    date_format: str = "%Y-%m-%d"
    hidden_categories: tuple[str, ...] = field(default_factory=tuple)


def load_settings(overrides: dict | None = None) -> Settings:
    settings = Settings()
    if not overrides:
        return settings
    known = {k: v for k, v in overrides.items() if k in Settings.__dataclass_fields__}
    if "hidden_categories" in known:
        known["hidden_categories"] = tuple(known["hidden_categories"])
    return replace(settings, **known)
