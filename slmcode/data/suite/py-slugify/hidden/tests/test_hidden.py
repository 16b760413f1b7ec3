from blog.text import slugify


def test_punctuation_is_dropped() -> None:
    assert slugify("Hello, World!") == "hello-world"


def test_runs_of_spaces_give_one_dash() -> None:
    assert slugify("  Many   spaces here ") == "many-spaces-here"


def test_digits_are_kept() -> None:
    assert slugify("Top 10 Tips: Python 3") == "top-10-tips-python-3"
