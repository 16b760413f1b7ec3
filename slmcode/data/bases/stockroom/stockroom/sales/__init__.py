from stockroom.sales.invoice import Invoice, InvoiceLine

__all__ = ["Invoice", "InvoiceLine"]
