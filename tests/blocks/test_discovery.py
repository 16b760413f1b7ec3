"""Block layers: project over user over SLMCODE_BLOCKS_PATH over built-in."""

from __future__ import annotations

from pathlib import Path

import pytest

from slmcode.blocks.discovery import discover_blocks
from slmcode.blocks.schema import AgentBlock
from slmcode.errors import BlockError


def agent_yaml(description: str, agent_id: str = "reviewer") -> str:
    return f"api_version: blocks/v1\nkind: agent\nid: {agent_id}\nrole: reviewer\ndescription: {description}\n"


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text)
    return folder / name


def reviewer_description(workspace: Path, environ: dict[str, str]) -> str:
    block = discover_blocks(workspace, environ).get("agent", "reviewer")
    assert block is not None and isinstance(block.block, AgentBlock)
    return block.block.description


def test_each_layer_overrides_the_ones_below(tmp_path: Path) -> None:
    ws, home, extra = tmp_path / "ws", tmp_path / "home", tmp_path / "extra"
    ws.mkdir()
    env = {"SLMCODE_HOME": str(home), "SLMCODE_BLOCKS_PATH": str(extra)}
    assert reviewer_description(ws, env).startswith("Judges the verdict table")  # built-in
    write(extra, "r.yaml", agent_yaml("from the blocks path"))
    assert reviewer_description(ws, env) == "from the blocks path"
    write(home / "blocks", "r.yaml", agent_yaml("from the user"))
    assert reviewer_description(ws, env) == "from the user"
    project = write(ws / ".slmcode/blocks", "r.yaml", agent_yaml("from the project"))
    assert reviewer_description(ws, env) == "from the project"
    sourced = discover_blocks(ws, env).get("agent", "reviewer")
    assert sourced is not None and sourced.layer == "project" and sourced.path == project
    assert [p.parent.name for p in sourced.hides] == ["blocks", "extra", "builtin"]


def test_blocks_path_folders_keep_their_order(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    write(first, "r.yml", agent_yaml("first"))
    write(second, "r.yaml", agent_yaml("second"))
    env = {"SLMCODE_HOME": str(tmp_path / "none"), "SLMCODE_BLOCKS_PATH": f"{first}:{second}"}
    assert reviewer_description(tmp_path, env) == "first"


def test_the_same_block_twice_in_one_layer_is_an_error(tmp_path: Path) -> None:
    folder = tmp_path / ".slmcode/blocks"
    write(folder, "a.yaml", agent_yaml("one"))
    write(folder, "b.yaml", agent_yaml("two"))
    with pytest.raises(BlockError, match=r"b\.yaml: agent/reviewer is defined again \(first in .*a\.yaml\)"):
        discover_blocks(tmp_path, {"SLMCODE_HOME": str(tmp_path / "none")})


def test_find_by_bare_id_or_ref(tmp_path: Path) -> None:
    catalog = discover_blocks(tmp_path, {"SLMCODE_HOME": str(tmp_path / "none")})
    assert sorted(b.block.ref for b in catalog.find("python")) == ["pack/python", "quality/python"]
    assert [b.block.ref for b in catalog.find("quality/python")] == ["quality/python"]
