from stockroom.catalog import Catalog, Product
from stockroom.inventory.reorder import suggest_orders
from stockroom.inventory.stock import Warehouse
from stockroom.reports.low_stock import low_stock


def setup() -> tuple[Catalog, Warehouse]:
    catalog = Catalog([Product("AB-1001", "Oak shelf", 2490, reorder_point=5, reorder_quantity=10),
                       Product("AB-1002", "Pine shelf", 1890, reorder_point=5, reorder_quantity=10)])
    warehouse = Warehouse("main")
    warehouse.receive("AB-1001", 2)
    warehouse.receive("AB-1002", 2)
    warehouse.order("AB-1001", 10)
    return catalog, warehouse


def test_ordered_stock_is_not_ordered_again() -> None:
    catalog, warehouse = setup()
    assert suggest_orders(list(catalog), warehouse) == {"AB-1002": 10}


def test_low_stock_list_counts_what_is_on_order() -> None:
    catalog, warehouse = setup()
    assert [row[0] for row in low_stock(catalog, warehouse)] == ["AB-1002"]


def test_receiving_the_order_clears_it() -> None:
    catalog, warehouse = setup()
    warehouse.receive("AB-1001", 10)
    assert warehouse.on_order("AB-1001") == 0
    assert suggest_orders(list(catalog), warehouse) == {"AB-1002": 10}
