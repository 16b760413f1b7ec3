"""README is a front page and docs/ the manual: README stays short, every relative link of the pages reaches a
file (and its anchor a heading there), and every setting slmcode defines has its row in docs/configuration.md."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

from slmcode.commands.chat_slash import COMMANDS
from slmcode.settings import SETTING_KEYS
from tests.test_docs import ROOT, anchors

README_MAX_LINES = 200
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def pages() -> list[Path]:
    top = [ROOT / name for name in ("README.md", "CONTRIBUTING.md", "CHANGELOG.md") if (ROOT / name).exists()]
    return [*top, *sorted((ROOT / "docs").glob("*.md"))]


def links(page: Path) -> list[str]:
    """The link targets of a page's prose: fenced blocks and inline code hold examples, not links."""
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    text = re.sub(r"`[^`\n]*`", "", text)
    return LINK.findall(text)


def broken(page: Path, target: str) -> str | None:
    if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:: not ours to check offline
        return None
    path, _, anchor = unquote(target).partition("#")
    file = (page.parent / path).resolve() if path else page
    if not file.exists():
        return f"{target}: no such file"
    if anchor and file.suffix == ".md" and anchor not in anchors(file):
        return f"{target}: no heading #{anchor} in {file.relative_to(ROOT)}"
    return None


def test_readme_is_a_front_page() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines; move the detail into a page under docs/"


def test_readme_leads_into_every_manual_page() -> None:
    linked = {(ROOT / target.partition("#")[0]).resolve() for target in links(ROOT / "README.md")}
    unlinked = [p.name for p in sorted((ROOT / "docs").glob("*.md")) if p.resolve() not in linked]
    assert not unlinked, f"README's table of contents leaves out {unlinked}"


def test_every_relative_link_resolves() -> None:
    found = [
        f"{page.relative_to(ROOT)}: {problem}"
        for page in pages()
        for target in links(page)
        if (problem := broken(page, target))
    ]
    assert not found, "\n".join(found)


def test_every_setting_has_its_row() -> None:
    text = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `([a-z_]+)` \|", text, flags=re.M))
    missing = [key for key in SETTING_KEYS if key not in rows]
    assert not missing, f"docs/configuration.md has no row for {missing}"
    stale = sorted(rows - set(SETTING_KEYS))
    assert not stale, f"docs/configuration.md describes settings slmcode no longer has: {stale}"


def test_every_slash_command_has_its_row() -> None:
    rows = set(re.findall(r"^\| `/([a-z]+)", (ROOT / "docs" / "chat.md").read_text(encoding="utf-8"), flags=re.M))
    assert set(COMMANDS) <= rows, f"docs/chat.md has no row for /{sorted(set(COMMANDS) - rows)}"
    assert rows <= set(COMMANDS), f"docs/chat.md describes slash commands chat lacks: {sorted(rows - set(COMMANDS))}"
