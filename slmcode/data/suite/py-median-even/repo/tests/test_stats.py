import stats


def test_mean() -> None:
    assert stats.mean([1, 2, 3]) == 2


def test_median_odd() -> None:
    assert stats.median([3, 1, 2]) == 2
