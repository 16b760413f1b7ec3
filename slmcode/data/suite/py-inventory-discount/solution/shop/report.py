from shop.models import Item


def total_value(items: list[Item]) -> float:
    return round(sum(item.price * (1 - item.discount) * item.quantity for item in items), 2)


def report(items: list[Item]) -> str:
    lines = [f"{item.name}: {item.quantity}" for item in items]
    lines.append(f"total: {total_value(items):.2f}")
    return "\n".join(lines)
