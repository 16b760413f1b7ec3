from listutil import dedupe


def test_first_occurrences_keep_their_order() -> None:
    assert dedupe(["c", "a", "c", "b"]) == ["c", "a", "b"]
