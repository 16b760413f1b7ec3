from stockroom.reports.table import render


def test_numbers_are_right_aligned() -> None:
    text = render(["name", "qty"], [["shelf", "5"], ["soil", "120"]])
    assert text.splitlines()[2] == "shelf    5"
