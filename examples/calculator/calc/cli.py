"""Command line: `python -m calc.cli add 2 3`."""

import sys

from calc import ops

OPERATIONS = {"add": ops.add, "subtract": ops.subtract, "multiply": ops.multiply}


def main(argv: list[str]) -> int:
    if len(argv) != 3 or argv[0] not in OPERATIONS:
        print(f"usage: calc {{{'|'.join(OPERATIONS)}}} A B", file=sys.stderr)
        return 2
    print(OPERATIONS[argv[0]](float(argv[1]), float(argv[2])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
