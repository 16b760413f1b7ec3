def dedupe(items: list) -> list:
    return list(set(items))


def flatten(nested: list[list]) -> list:
    return [x for inner in nested for x in inner]
