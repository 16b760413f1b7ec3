from stockroom.sales.numbering import next_number


def test_credit_notes_count_in_their_own_series() -> None:
    assert next_number(["INV-2024-0041", "CR-2024-0002"], "CR", 2024) == "CR-2024-0003"
