import sys

from timer.timeparse import parse_duration


def main(argv: list[str]) -> int:
    seconds = parse_duration(argv[0])
    print(f"waiting {seconds} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
