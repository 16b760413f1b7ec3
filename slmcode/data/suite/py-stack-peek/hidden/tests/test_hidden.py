import pytest

from structures.stack import Stack


def test_peek_returns_top_and_keeps_it() -> None:
    s = Stack()
    s.push("a")
    s.push("b")
    assert s.peek() == "b"
    assert len(s) == 2
    assert s.pop() == "b"


def test_peek_on_empty_raises() -> None:
    with pytest.raises(IndexError):
        Stack().peek()
