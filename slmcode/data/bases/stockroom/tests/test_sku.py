import pytest

from stockroom.catalog.sku import is_valid_sku, normalize_sku
from stockroom.errors import InvalidSku


def test_normalize_adds_the_dash() -> None:
    assert normalize_sku(" AB1234 ") == "AB-1234"


def test_invalid() -> None:
    assert not is_valid_sku("A-12")
    with pytest.raises(InvalidSku):
        normalize_sku("12-ABCD")
