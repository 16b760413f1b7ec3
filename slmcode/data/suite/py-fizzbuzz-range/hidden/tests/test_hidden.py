from game import fizzbuzz


def test_inclusive() -> None:
    assert fizzbuzz(5) == ["1", "2", "Fizz", "4", "Buzz"]


def test_one() -> None:
    assert fizzbuzz(1) == ["1"]
