from stockroom.sales.numbering import next_number, parse_number


def test_next_number_counts_per_year() -> None:
    existing = ["INV-2023-0007", "INV-2024-0002", "INV-2024-0001"]
    assert next_number(existing, "INV", 2024) == "INV-2024-0003"
    assert next_number(existing, "INV", 2025) == "INV-2025-0001"


def test_parse() -> None:
    assert parse_number("INV-2024-0012") == ("INV", 2024, 12)
