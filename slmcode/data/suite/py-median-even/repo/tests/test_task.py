import stats


def test_an_even_list_averages_the_middle_two() -> None:
    assert stats.median([1, 2, 3, 4]) == 2.5
