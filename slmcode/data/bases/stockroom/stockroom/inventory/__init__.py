from stockroom.inventory.stock import Warehouse

__all__ = ["Warehouse"]
