from blog.text import slugify


def test_punctuation_leaves_no_trace() -> None:
    assert slugify("Hello, World!") == "hello-world"
