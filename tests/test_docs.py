"""The design lives in the repository: code cites docs/architecture.md by anchor, never a file outside the checkout
or an issue number, and every anchor it cites is a heading of that page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = ROOT / "docs" / "architecture.md"
CODE_FOLDERS = ("slmcode", "tests", "bench")
CODE_SUFFIXES = {".py", ".yaml", ".yml", ".toml"}

# What a reader of the checkout cannot follow: the design file kept outside it, and tracker numbers.
OUTSIDE = {
    "the outside design file": re.compile(r"DESIGN\.md|DESIGN invariant|\.\./shared|/work/shared"),
    "an issue number": re.compile(r"\bissues? ?-?\d+", re.IGNORECASE),
    "a numbered invariant": re.compile(r"\binvariant \d+", re.IGNORECASE),
    "a tracker reference": re.compile(r"(?<![&\w])#\d\d\b"),
}
CITATION = re.compile(r"docs/architecture\.md#([\w-]+)")


def slug(heading: str) -> str:
    """The anchor GitHub gives a Markdown heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every heading's anchor on a page (a repeated heading's copies get -1, -2, ... as on GitHub)."""
    seen: dict[str, int] = {}
    found: set[str] = set()
    in_fence = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_fence = not in_fence
        match = None if in_fence else re.match(r"#{1,6} (.+)", line)
        if match:
            base = slug(match.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def code_files() -> list[Path]:
    here = Path(__file__).resolve()
    return sorted(
        path
        for folder in CODE_FOLDERS
        for path in (ROOT / folder).rglob("*")
        if path.suffix in CODE_SUFFIXES and path.is_file() and path != here and "__pycache__" not in path.parts
    )


def test_no_citation_leaves_the_repository() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}: {what}: {line.strip()}"
        for path in code_files()
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        for what, pattern in OUTSIDE.items()
        if pattern.search(line)
    ]
    assert not found, "cite docs/architecture.md#anchor or say the reason instead:\n" + "\n".join(found)


def test_every_cited_anchor_is_a_heading_of_architecture() -> None:
    headings = anchors(ARCHITECTURE)
    cited = [
        (f"{path.relative_to(ROOT)}:{n}", anchor)
        for path in [*code_files(), *sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        for anchor in CITATION.findall(line)
    ]
    assert cited, "the code cites no anchor of docs/architecture.md"
    missing = [f"{where}: #{anchor}" for where, anchor in cited if anchor not in headings]
    assert not missing, "no such heading in docs/architecture.md:\n" + "\n".join(missing)


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [("Crash safety", "crash-safety"), ("Measured, not believed", "measured-not-believed"), ("`ws_edit`", "ws_edit")],
)
def test_slug_is_githubs(heading: str, anchor: str) -> None:
    assert slug(heading) == anchor


def test_the_layer_table_names_every_package() -> None:
    from tests.test_layers import BASE, MAY_IMPORT

    first_column = " ".join(
        line.split("|")[1] for line in ARCHITECTURE.read_text(encoding="utf-8").splitlines() if line.startswith("| `")
    )
    named = set(re.findall(r"`([a-z_]+)/?`", first_column))
    missing = sorted(set(MAY_IMPORT) - BASE - named)  # BASE: the paragraph above the table
    assert not missing, f"docs/architecture.md#layers has no row for {missing} (tests/test_layers.py has)"
