from contacts.model import Contact


def field(text: str) -> str:
    if "," in text or '"' in text:
        return '"' + text.replace('"', '""') + '"'
    return text


def row(fields: list[str]) -> str:
    return ",".join(field(f) for f in fields)


def export(contacts: list[Contact]) -> str:
    lines = [row(["name", "email"])]
    lines += [row([c.name, c.email]) for c in contacts]
    return "\n".join(lines) + "\n"
