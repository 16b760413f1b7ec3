"""stockroom's command line: stock, find, price, low-stock."""

import argparse
import sys

from stockroom.cli import commands
from stockroom.errors import StockroomError
from stockroom.inventory.stock import Warehouse


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="stockroom")
    sub = parser.add_subparsers(dest="command", required=True)
    stock = sub.add_parser("stock", help="the stock report")
    stock.add_argument("products")
    find = sub.add_parser("find", help="search the catalog")
    find.add_argument("products")
    find.add_argument("query")
    price = sub.add_parser("price", help="one product's price")
    price.add_argument("products")
    price.add_argument("sku")
    low = sub.add_parser("low-stock", help="products that need reordering")
    low.add_argument("products")
    return parser


def run(argv: list[str], warehouse: Warehouse | None = None) -> str:
    args = build_parser().parse_args(argv)
    catalog = commands.load_catalog(args.products)
    warehouse = warehouse or Warehouse("main")
    if args.command == "stock":
        return commands.cmd_stock(catalog, warehouse)
    if args.command == "find":
        return commands.cmd_find(catalog, args.query)
    if args.command == "low-stock":
        return commands.cmd_low_stock(catalog, warehouse)
    return commands.cmd_price(catalog, args.sku)


def main(argv: list[str] | None = None) -> int:
    try:
        print(run(sys.argv[1:] if argv is None else argv))
    except StockroomError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
