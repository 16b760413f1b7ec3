"""Project instructions: priority, caps, de-duplication and path gating."""

from __future__ import annotations

import os
from pathlib import Path

from slmcode.config import Settings
from slmcode.packs.instructions import MAX_FILE_BYTES, MAX_TOTAL_BYTES, load_instructions


def write(root: Path, relative: str, text: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_files_come_in_priority_order_and_slmcode_agents_layers_under_the_root_one(tmp_path: Path) -> None:
    write(tmp_path, ".slmcode/PROJECT.md", "project notes\n")
    write(tmp_path, ".slmcode/AGENTS.md", "local agents\n")
    write(tmp_path, ".cursor/rules/b.mdc", "rule b\n")
    write(tmp_path, ".cursor/rules/a.md", "rule a\n")
    write(tmp_path, ".cursorrules", "cursor rules\n")
    write(tmp_path, "AGENT.md", "agent\n")
    write(tmp_path, "CLAUDE.md", "claude\n")
    write(tmp_path, "AGENTS.md", "root agents\n")
    result = load_instructions(tmp_path, Settings())
    assert result.files == (
        "AGENTS.md",
        "CLAUDE.md",
        "AGENT.md",
        ".cursorrules",
        ".cursor/rules/a.md",
        ".cursor/rules/b.mdc",
        ".slmcode/AGENTS.md",
        ".slmcode/PROJECT.md",
    )
    assert result.text.index("root agents") < result.text.index("local agents") < result.text.index("project notes")


def test_readme_only_with_include_readme(tmp_path: Path) -> None:
    write(tmp_path, "README.md", "readme text\n")
    assert load_instructions(tmp_path, Settings()).files == ()
    assert load_instructions(tmp_path, Settings(include_readme=True)).files == ("README.md",)


def test_a_file_reached_twice_is_read_once(tmp_path: Path) -> None:
    write(tmp_path, "AGENTS.md", "shared rules\n")
    os.symlink(tmp_path / "AGENTS.md", tmp_path / "CLAUDE.md")
    write(tmp_path, "AGENT.md", "shared rules\n")  # a byte-identical copy
    result = load_instructions(tmp_path, Settings())
    assert result.files == ("AGENTS.md",)
    assert result.text.count("shared rules") == 1


def test_each_file_is_capped_at_4000_bytes_with_a_visible_marker(tmp_path: Path) -> None:
    write(tmp_path, "AGENTS.md", "".join(f"rule number {i:04d} keep it short\n" for i in range(400)))
    result = load_instructions(tmp_path, Settings())
    body = result.text.split("\n", 1)[1]
    assert len(body.encode()) <= MAX_FILE_BYTES
    assert "lines cut: budget]" in body
    assert "rule number 0000" in body and "rule number 0399" not in body


def test_the_total_cap_is_checked_after_the_file_just_added(tmp_path: Path) -> None:
    line = "x" * 99 + "\n"  # 100 bytes
    write(tmp_path, "AGENTS.md", line * 39)  # 3,900 bytes
    write(tmp_path, "CLAUDE.md", line.replace("x", "y") * 39)
    write(tmp_path, "AGENT.md", line.replace("x", "z") * 39)  # 11,700 in all so far: still under 12,000
    write(tmp_path, ".cursorrules", line.replace("x", "w") * 39)  # crosses 12,000: cut to what is left
    write(tmp_path, ".slmcode/PROJECT.md", "never seen\n")  # nothing left: dropped
    result = load_instructions(tmp_path, Settings())
    assert result.files == ("AGENTS.md", "CLAUDE.md", "AGENT.md", ".cursorrules")
    bodies = [part.split("\n", 1)[1] for part in result.text.split("### ")[1:]]
    assert sum(len(b.rstrip("\n").encode()) for b in bodies) <= MAX_TOTAL_BYTES
    assert "w" * 99 in bodies[3] and "lines cut: budget]" in bodies[3]
    assert "never seen" not in result.text
    assert any(".slmcode/PROJECT.md: dropped" in c for c in result.cut)


GATED = """# Rules
Always run the tests.

## Go code <!-- paths: **/*.go -->
Use gofmt.

## Frontend
<!-- paths: web/** -->
Use prettier.

## Commits
Write honest messages.
"""


def test_heading_comments_gate_their_section_and_ungated_sections_always_apply(tmp_path: Path) -> None:
    write(tmp_path, "AGENTS.md", GATED)
    go = load_instructions(tmp_path, Settings(), ["cmd/main.go"])
    assert "Use gofmt." in go.text and "Use prettier." not in go.text
    assert "Always run the tests." in go.text and "Write honest messages." in go.text
    web = load_instructions(tmp_path, Settings(), ["web/app.ts"])
    assert "Use prettier." in web.text and "Use gofmt." not in web.text


def test_an_empty_scope_disables_gating(tmp_path: Path) -> None:
    write(tmp_path, "AGENTS.md", GATED)
    result = load_instructions(tmp_path, Settings(), [])
    assert "Use gofmt." in result.text and "Use prettier." in result.text


def test_front_matter_paths_gate_a_whole_file(tmp_path: Path) -> None:
    write(tmp_path, ".cursor/rules/python.md", "---\npaths: ['**/*.py']\n---\nType hints everywhere.\n")
    assert "Type hints" in load_instructions(tmp_path, Settings(), ["pkg/mod.py"]).text
    assert load_instructions(tmp_path, Settings(), ["pkg/mod.go"]).files == ()


def test_ungated_text_is_the_same_whatever_the_scope(tmp_path: Path) -> None:
    write(tmp_path, "AGENTS.md", GATED + "\n## Big go notes <!-- paths: **/*.go -->\n" + "go detail\n" * 300)
    write(tmp_path, ".slmcode/AGENTS.md", "local rules\n" * 50)
    bases = {load_instructions(tmp_path, Settings(), scope).base_text for scope in (["a.go"], ["b.ts"], [])}
    assert len(bases) == 1
    assert "Use gofmt." not in bases.pop()
