from stockroom.sales.numbering import next_number


def test_each_prefix_counts_on_its_own() -> None:
    existing = ["INV-2024-0041", "CR-2024-0002", "INV-2024-0040", "CR-2023-0009"]
    assert next_number(existing, "CR", 2024) == "CR-2024-0003"
    assert next_number(existing, "INV", 2024) == "INV-2024-0042"


def test_a_new_series_starts_at_one() -> None:
    assert next_number(["INV-2024-0041"], "CR", 2024) == "CR-2024-0001"
