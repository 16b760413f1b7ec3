from game import fizzbuzz


def test_the_last_number_is_included() -> None:
    assert fizzbuzz(3) == ["1", "2", "Fizz"]
