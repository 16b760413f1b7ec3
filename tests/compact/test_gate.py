from slmcode.compact.gate import accept_compaction, gated

ORIGINAL = (
    """# Context

## Layout
The parser lives in src/parse/lexer.py and src/parse/grammar.py; tests in tests/test_parse.py.

## Conventions
Run `pytest -q`. Config in pyproject.toml. Fixtures in tests/conftest.py.
"""
    + "More detail about the architecture and its history. " * 20
)


GOOD = """# Context

## Layout
Parser: src/parse/lexer.py, src/parse/grammar.py; tests: tests/test_parse.py.

## Conventions
`pytest -q`; config pyproject.toml; fixtures tests/conftest.py. Architecture notes trimmed.
"""


def test_a_faithful_shorter_document_is_accepted() -> None:
    assert accept_compaction(ORIGINAL, GOOD).accepted
    assert gated(ORIGINAL, GOOD) == GOOD


def test_an_output_under_a_tenth_of_the_input_is_refused() -> None:
    result = accept_compaction(ORIGINAL, "## Layout\n## Conventions")
    assert not result.accepted and "tenth" in result.reason


def test_an_output_that_drops_a_heading_is_refused() -> None:
    result = accept_compaction(ORIGINAL, GOOD.replace("## Conventions", "Conventions:"))
    assert not result.accepted and "## Conventions" in result.reason


def test_an_output_that_loses_most_paths_is_refused() -> None:
    vague = GOOD.replace("src/parse/lexer.py, src/parse/grammar.py; tests: tests/test_parse.py", "the parser files")
    vague = vague.replace("fixtures tests/conftest.py", "fixtures")
    result = accept_compaction(ORIGINAL, vague)
    assert not result.accepted and "paths" in result.reason


def test_an_output_that_opens_with_a_preamble_is_refused_and_the_original_stays() -> None:
    chatty = "Sure! Here is the compacted document:\n\n" + GOOD
    result = accept_compaction(ORIGINAL, chatty)
    assert not result.accepted and "preamble" in result.reason
    assert gated(ORIGINAL, chatty) == ORIGINAL
