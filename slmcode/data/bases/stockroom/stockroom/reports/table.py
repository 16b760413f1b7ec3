"""Plain-text tables for the terminal: left-aligned text, right-aligned numbers."""


def _is_number(cell: str) -> bool:
    return cell.replace(".", "", 1).replace(",", "").replace("-", "", 1).strip().isdigit()


def render(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        out = []
        for cell, width in zip(cells, widths):
            cell = str(cell)
            out.append(cell.rjust(width) if _is_number(cell) else cell.ljust(width))
        return "  ".join(out).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(header), rule, *(line(r) for r in rows)])
