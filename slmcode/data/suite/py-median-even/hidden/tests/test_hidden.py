import stats


def test_median_even() -> None:
    assert stats.median([4, 1, 3, 2]) == 2.5


def test_median_odd_still_works() -> None:
    assert stats.median([5, 1, 9]) == 5


def test_median_two() -> None:
    assert stats.median([10, 20]) == 15
