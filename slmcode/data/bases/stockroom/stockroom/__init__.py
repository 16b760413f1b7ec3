"""stockroom: products, stock, invoices and reports for a small shop."""

__version__ = "0.4.0"
