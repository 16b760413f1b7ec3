from structures.stack import Stack


def test_peek_shows_the_top_and_keeps_it() -> None:
    stack = Stack()
    stack.push(1)
    stack.push(2)
    assert stack.peek() == 2
    assert len(stack) == 2
