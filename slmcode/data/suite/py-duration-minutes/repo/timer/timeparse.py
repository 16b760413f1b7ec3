import re

UNITS = {"h": 3600, "s": 1}


def parse_duration(text: str) -> int:
    total = 0
    for amount, unit in re.findall(r"(\d+)([hs])", text):
        total += int(amount) * UNITS[unit]
    return total
