"""A ratio over a zero baseline reads as what happened, never 'inf'."""

from slmcode.eval.report import ratio


def test_a_zero_baseline_is_said_not_divided() -> None:
    assert ratio(0.75, 0.0) == "n/a (baseline 0)"
    assert ratio(0.0, 0.0) == "n/a (both 0)"
    assert ratio(0.5, 0.25) == "2.00x"
