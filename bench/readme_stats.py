"""What a newcomer meets first, counted: README's lines, words and sentences, the manual's pages and the links
between them.

Run: python bench/readme_stats.py [README] (default: the checkout's README.md)

Sentences are counted in prose only: fenced blocks, tables, headings and inline code are left out, and a
sentence ends at '.', '!' or '?' followed by a space or the end of a paragraph.
"""

from __future__ import annotations

import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def prose(text: str) -> list[str]:
    """The paragraphs of a Markdown text that are sentences, not code, tables or headings."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    kept = [line for line in text.splitlines() if not line.lstrip().startswith(("|", "#"))]
    paragraphs = "\n".join(kept).split("\n\n")
    return [re.sub(r"`[^`\n]*`", "code", " ".join(p.split())) for p in paragraphs if p.strip()]


def sentences(text: str) -> list[str]:
    found: list[str] = []
    for paragraph in prose(text):
        found += [s for s in re.split(r"(?<=[.!?])\s+", paragraph) if re.search(r"\w", s)]
    return found


def main() -> None:
    readme = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "README.md"
    text = readme.read_text(encoding="utf-8")
    lengths = [len(s.split()) for s in sentences(text)]
    pages = sorted((readme.parent / "docs").glob("*.md"))
    links = LINK.findall(text)
    manual_links = sum(len(LINK.findall(p.read_text(encoding="utf-8"))) for p in pages)
    print(f"README lines: {text.count(chr(10))}")
    print(f"README words: {len(text.split())}")
    if lengths:
        print(f"README sentences: {len(lengths)}, mean {statistics.mean(lengths):.1f} words, longest {max(lengths)}")
    print(f"manual pages (docs/*.md): {len(pages)}")
    print(f"links in README: {len(links)} ({sum(t.startswith('docs/') for t in links)} into docs/)")
    print(f"links in the manual pages: {manual_links}")


if __name__ == "__main__":
    main()
