from contacts.model import Contact


def row(fields: list[str]) -> str:
    return ",".join(fields)


def export(contacts: list[Contact]) -> str:
    lines = [row(["name", "email"])]
    lines += [row([c.name, c.email]) for c in contacts]
    return "\n".join(lines) + "\n"
