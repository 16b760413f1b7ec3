from utils.iters import chunk


def test_the_last_chunk_may_be_shorter() -> None:
    assert list(chunk([1, 2, 3], 2)) == [[1, 2], [3]]
