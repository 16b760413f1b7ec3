import pytest

from stockroom.errors import InsufficientStock
from stockroom.inventory.stock import Warehouse
from stockroom.inventory.transfer import transfer


def test_failed_move_changes_nothing() -> None:
    north, south = Warehouse("north"), Warehouse("south")
    north.receive("AB-1001", 3)
    with pytest.raises(InsufficientStock):
        transfer(north, south, "AB-1001", 5)
    assert north.on_hand("AB-1001") == 3
    assert south.on_hand("AB-1001") == 0


def test_move_within_stock() -> None:
    north, south = Warehouse("north"), Warehouse("south")
    north.receive("AB-1001", 3)
    moved = transfer(north, south, "AB-1001", 2)
    assert (north.on_hand("AB-1001"), south.on_hand("AB-1001")) == (1, 2)
    assert (moved.source, moved.target) == ("north", "south")
