class StockroomError(Exception):
    """Base of every error the library raises on purpose."""


class UnknownProduct(StockroomError):
    pass


class InsufficientStock(StockroomError):
    pass


class InvalidSku(StockroomError):
    pass


class ImportFailed(StockroomError):
    pass
