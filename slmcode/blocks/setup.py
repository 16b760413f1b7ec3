"""Setting a workspace up from blocks: `slmcode init` (choose and record the language pack) and
`slmcode blocks apply` (copy a block into the project layer, where it wins and can be edited)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml

from slmcode import trust
from slmcode.blocks.compose import choose_pack
from slmcode.blocks.discovery import PROJECT_BLOCKS, SourcedBlock, discover_blocks, layers
from slmcode.blocks.loader import block_files, validate_path
from slmcode.blocks.schema import Block, PackBlock
from slmcode.config import project_config_path, read_yaml_file
from slmcode.errors import BlockError, WorkspaceError
from slmcode.store.atomic import atomic_write_text
from slmcode.store.yamlread import read_workspace

LANGUAGE_PACK_LINE = re.compile(r"^language_pack[ \t]*:[^\n]*$", re.MULTILINE)


@dataclass(frozen=True)
class InitResult:
    pack: str | None
    reasons: list[str]
    config_path: Path
    previous: str | None


def set_language_pack(workspace: Path, pack: str | None) -> tuple[Path, str | None]:
    """Write language_pack into .slmcode/config.yaml, keeping every other key; returns (path, old value)."""
    path = project_config_path(workspace)
    data = read_yaml_file(path) if path.is_file() else {}
    previous = data.get("language_pack")
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    atomic_write_text(path, _with_language_pack(text, data, pack))
    return path, previous


def _with_language_pack(text: str, data: dict[str, object], pack: str | None) -> str:
    """The config text with its one language_pack line set (or added): the user's comments, order and
    spelling stay. A layout a line edit cannot handle (a flow mapping, a value over several lines) is
    written again from the settings, as before."""
    line = f"language_pack: {yaml.safe_dump(pack).splitlines()[0]}"
    found = LANGUAGE_PACK_LINE.findall(text)
    if len(found) == 1:
        edited = LANGUAGE_PACK_LINE.sub(lambda _: line, text)
    else:
        edited = f"{text}{'' if not text or text.endswith(chr(10)) else chr(10)}{line}\n"
    try:
        if yaml.safe_load(edited) == {**data, "language_pack": pack}:
            return edited
    except yaml.YAMLError:
        pass
    return yaml.safe_dump({**data, "language_pack": pack}, sort_keys=False, allow_unicode=True)


def init_workspace(workspace: Path, pack: str | None = None, environ: Mapping[str, str] | None = None) -> InitResult:
    """Choose the pack (`pack` if given, else detection) and record it in .slmcode/config.yaml."""
    if not workspace.is_dir():
        raise WorkspaceError(f"{workspace}: no such folder")
    catalog = discover_blocks(workspace, environ)
    chosen, reasons = choose_pack(catalog, workspace, pack)
    if pack:
        reasons = [f"--pack {pack} was given"]
    path, previous = set_language_pack(workspace, chosen.id if chosen else None)
    return InitResult(chosen.id if chosen else None, reasons, path, previous)


def block_yaml(block: Block) -> str:
    data = block.model_dump(mode="json", exclude_defaults=True)
    ordered = {"api_version": block.api_version, "kind": block.kind, "id": block.id, **data}
    return yaml.safe_dump(ordered, sort_keys=False, allow_unicode=True, width=100)


def _pick(catalog_matches: list[SourcedBlock], name: str) -> SourcedBlock:
    packs = [m for m in catalog_matches if isinstance(m.block, PackBlock)]
    if len(catalog_matches) == 1:
        return catalog_matches[0]
    if len(packs) == 1:
        return packs[0]  # `apply python` means the pack, which brings its quality block along
    refs = ", ".join(m.block.ref for m in catalog_matches)
    raise BlockError(f"block '{name}' is ambiguous: {refs}; give KIND/ID")


def apply_block(workspace: Path, name: str, environ: Mapping[str, str] | None = None) -> list[str]:
    """Copy block `name` (and a pack's quality block) into .slmcode/blocks/; a pack also becomes the
    workspace's language_pack. Returns what was done, one line each."""
    catalog = discover_blocks(workspace, environ)
    matches = catalog.find(name)
    if not matches:
        raise BlockError(f"no block '{name}' (`slmcode blocks list` shows them)")
    chosen = _pick(matches, name)
    copies = [chosen]
    if isinstance(chosen.block, PackBlock):
        quality = catalog.get("quality", chosen.block.quality_id)
        copies += [quality] if quality else []
    # A copy of a block slmcode ships needs no new trust: a workspace trusted before (or asking for nothing that
    # needs trust) stays trusted with it; any other stays untrusted until the user looks (slmcode.trust).
    before = read_workspace(workspace)
    was_trusted = trust.is_trusted(workspace, environ, before) or not trust.shown_trusted(before)
    done = []
    for sourced in copies:
        block = sourced.block
        if sourced.layer == "project":
            done.append(f"{block.ref} is already a project block ({sourced.path})")
            continue
        target = workspace / PROJECT_BLOCKS / f"{block.kind}-{block.id}.yaml"
        atomic_write_text(target, f"# Copied from {sourced.path} by `slmcode blocks apply`.\n" + block_yaml(block))
        done.append(f"copied {block.ref} to {target}")
    if isinstance(chosen.block, PackBlock):
        path, previous = set_language_pack(workspace, chosen.block.id)
        was = f" (was {previous})" if previous and previous != chosen.block.id else ""
        done.append(f"set language_pack: {chosen.block.id} in {path}{was}")
    if was_trusted:
        trust.trust_workspace(workspace, environ)
    elif trust.widening_blocks(read_workspace(workspace)):
        done.append(
            f"{workspace.resolve()} is not trusted: its blocks that name commands apply after "
            f"`slmcode trust {workspace.resolve()}`"
        )
    return done


def validate_layers(workspace: Path, environ: Mapping[str, str] | None = None) -> tuple[int, list[str]]:
    """Validate every layer's block files: (blocks that validated, one error line per bad file)."""
    count, errors = 0, list[str]()
    for layer in layers(workspace, environ):
        if block_files(layer.folder):
            layer_count, layer_errors = validate_path(layer.folder)
            count, errors = count + layer_count, errors + layer_errors
    return count, errors
