from utils.iters import pairs


def test_pairs() -> None:
    assert list(pairs([1, 2, 3, 4])) == [(1, 2), (3, 4)]
