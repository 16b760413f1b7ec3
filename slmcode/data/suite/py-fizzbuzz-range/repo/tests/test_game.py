from game import line


def test_line() -> None:
    assert line(15) == "FizzBuzz"
