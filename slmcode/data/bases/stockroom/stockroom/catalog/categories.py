"""Categories form a tree written as paths: 'garden/soil', 'garden/seed'."""


def parent(category: str) -> str | None:
    head, sep, _ = category.rpartition("/")
    return head if sep else None


def ancestors(category: str) -> list[str]:
    """The category's parents, nearest first."""
    found = []
    current = parent(category)
    while current:
        found.append(current)
        current = parent(current)
    return found


def within(category: str, root: str) -> bool:
    """True when `category` is `root` or sits below it."""
    return category == root or root in ancestors(category)


def tree(categories: list[str]) -> dict[str, list[str]]:
    """Each category's direct children, sorted."""
    children: dict[str, set[str]] = {}
    for category in categories:
        node = category
        while (up := parent(node)) is not None:
            children.setdefault(up, set()).add(node)
            node = up
        children.setdefault(category, set())
    return {k: sorted(v) for k, v in sorted(children.items())}
