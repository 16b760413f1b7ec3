from structures.stack import Stack


def test_push_pop() -> None:
    s = Stack()
    s.push(1)
    s.push(2)
    assert s.pop() == 2
    assert len(s) == 1
