import pytest

from stockroom.errors import InsufficientStock
from stockroom.inventory.stock import Warehouse
from stockroom.inventory.transfer import transfer


def test_a_refused_move_leaves_the_receiver_empty() -> None:
    north, south = Warehouse("north"), Warehouse("south")
    north.receive("AB-1001", 1)
    with pytest.raises(InsufficientStock):
        transfer(north, south, "AB-1001", 2)
    assert south.on_hand("AB-1001") == 0
