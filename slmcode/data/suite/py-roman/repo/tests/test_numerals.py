import numerals


def test_module_has_to_roman() -> None:
    assert callable(numerals.to_roman)
