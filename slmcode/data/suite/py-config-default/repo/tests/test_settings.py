from app.settings import Settings


def test_reads_values() -> None:
    assert Settings("a = 1\n# c\nb=2").keys() == ["a", "b"]
