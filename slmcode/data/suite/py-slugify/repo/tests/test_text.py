from blog.text import excerpt


def test_excerpt_short() -> None:
    assert excerpt("a b c", words=5) == "a b c"
