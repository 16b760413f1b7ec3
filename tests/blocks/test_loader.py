"""Malformed blocks are reported with file, line, field and what was expected."""

from __future__ import annotations

from pathlib import Path

import pytest

from slmcode.blocks.discovery import discover_blocks
from slmcode.blocks.loader import load_block_file, validate_path
from slmcode.errors import BlockError

HEAD = "api_version: blocks/v1\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            HEAD + "kind: pipeline\nid: p\nphases:\n  - name: a\n  - name: b\n    when: sometimes\n",
            "x.yaml:7: pipeline 'p': field 'phases.1.when': expected 'always', 'auto' or 'never', got 'sometimes'",
        ),
        (
            HEAD + "kind: agent\nid: a\nrole: reviewer\ncolour: red\n",
            "x.yaml:5: agent 'a': field 'colour': unknown field; expected one of: api_version, id, description",
        ),
        (HEAD + "kind: agent\nid: a\n", "x.yaml:1: agent 'a': field 'role': expected a value (required field)"),
        (
            HEAD + "kind: agent\nid: a\nrole: r\nprompt: 'do {{task}}'\n",
            "x.yaml:5: agent 'a': field 'prompt': expected placeholders among {{query}}, {{exploration}}, "
            "{{plan}}, {{phase}}, not {{task}}",
        ),
        (
            HEAD + "kind: pipeline\nid: p\nphases: [{name: a}]\nslots:\n  - name: s\n    agent: x\n    after: b\n",
            "x.yaml:8: pipeline 'p': field 'slots.0.after': expected one of this pipeline's phases (a), got 'b'",
        ),
        (
            HEAD + "kind: pipeline\nid: p\nphases: [{name: a}]\nslots: [{name: s, agent: x, after: a, before: a}]\n",
            "x.yaml:5: pipeline 'p': field 'slots.0': expected exactly one of before, after or replace",
        ),
        (HEAD + "kind: workflow\nid: w\n", "x.yaml:2: field 'kind': expected one of pipeline | agent | quality | pack"),
        ("kind: agent\nid: a\n", "x.yaml:1: field 'api_version': expected 'blocks/v1', got None"),
        (HEAD + "kind: pack\nid: p\ndetect: {extensions: [py]}\n", "x.yaml:4: pack 'p': field 'detect.extensions'"),
        ("a: [1,\n", "x.yaml:2: broken YAML"),
    ],
)
def test_malformed_block_names_file_line_field_and_expectation(text: str, expected: str, tmp_path: Path) -> None:
    (tmp_path / "x.yaml").write_text(text)
    with pytest.raises(BlockError) as caught:
        load_block_file(tmp_path / "x.yaml")
    assert str(caught.value).startswith(f"{tmp_path}/{expected}")


def test_a_malformed_project_block_stops_discovery_with_its_path(tmp_path: Path) -> None:
    folder = tmp_path / ".slmcode/blocks"
    folder.mkdir(parents=True)
    (folder / "bad.yaml").write_text(HEAD + "kind: quality\nid: q\ntest: 3\n")
    with pytest.raises(BlockError, match=r"bad\.yaml:4: quality 'q': field 'test': expected a valid list, got 3"):
        discover_blocks(tmp_path, {"SLMCODE_HOME": str(tmp_path / "none")})


def test_several_documents_in_one_file(tmp_path: Path) -> None:
    path = tmp_path / "two.yaml"
    path.write_text(HEAD + "kind: quality\nid: q\ntest: pytest -q\n---\n---\n" + HEAD + "kind: agent\nid: a\nrole: r\n")
    assert [b.ref for b in load_block_file(path)] == ["quality/q", "agent/a"]
    assert load_block_file(path)[0].test == ["pytest -q"]  # type: ignore[union-attr]


def test_validate_reports_every_bad_file(tmp_path: Path) -> None:
    (tmp_path / "good.yaml").write_text(HEAD + "kind: agent\nid: a\nrole: r\n")
    (tmp_path / "bad.yml").write_text(HEAD + "kind: agent\nid: Bad Id\nrole: r\n")
    count, errors = validate_path(tmp_path)
    assert count == 1 and len(errors) == 1 and "bad.yml:3: agent 'Bad Id': field 'id'" in errors[0]
    builtin_count, builtin_errors = validate_path(Path(__file__).parents[2] / "slmcode/blocks/builtin")
    assert builtin_errors == [] and builtin_count == 1 + 15 + 26
