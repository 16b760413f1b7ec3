from stockroom.catalog import Product
from stockroom.inventory.reorder import suggest_orders
from stockroom.inventory.stock import Warehouse


def test_stock_on_order_is_not_ordered_again() -> None:
    warehouse = Warehouse("main")
    warehouse.order("AB-1001", 10)
    shelf = Product("AB-1001", "Oak shelf", 2490, reorder_point=5, reorder_quantity=10)
    assert suggest_orders([shelf], warehouse) == {}
