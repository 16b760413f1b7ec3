import pytest

from utils.iters import chunk


def test_even() -> None:
    assert list(chunk([1, 2, 3, 4], 2)) == [[1, 2], [3, 4]]


def test_remainder() -> None:
    assert list(chunk(range(5), 2)) == [[0, 1], [2, 3], [4]]


def test_generator() -> None:
    assert list(chunk((x for x in "abc"), 5)) == [["a", "b", "c"]]


def test_bad_size() -> None:
    with pytest.raises(ValueError):
        list(chunk([1], 0))
