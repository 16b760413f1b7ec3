from stockroom.sales.tax import rate_for


def test_a_lower_case_region_is_taxed() -> None:
    assert rate_for("de") == rate_for("DE") > 0
