import pytest

from stockroom.errors import StockroomError
from stockroom.units import convert


def test_kilograms_to_grams() -> None:
    assert convert(2, "kg", "g") == 2000


def test_boxes_to_pieces() -> None:
    assert convert(3, "box", "pcs") == 36


def test_mass_is_not_volume() -> None:
    with pytest.raises(StockroomError):
        convert(1, "kg", "l")
