import pytest

from stockroom.errors import InsufficientStock
from stockroom.inventory.stock import Warehouse


def test_receive_and_take() -> None:
    w = Warehouse("main")
    w.receive("AB-1001", 5)
    w.take("AB-1001", 2)
    assert w.on_hand("AB-1001") == 3


def test_cannot_take_more_than_on_hand() -> None:
    w = Warehouse("main")
    w.receive("AB-1001", 1)
    with pytest.raises(InsufficientStock):
        w.take("AB-1001", 2)
