"""Settings read from a simple `key = value` file."""


def parse(text: str) -> dict[str, str]:
    values = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            values[key.strip()] = value.strip()
    return values


class Settings:
    def __init__(self, text: str) -> None:
        self._values = parse(text)

    def get(self, key: str, default: str | None = None) -> str | None:
        return self._values.get(key, default)

    def keys(self) -> list[str]:
        return sorted(self._values)
