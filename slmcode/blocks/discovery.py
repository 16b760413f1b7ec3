"""Where blocks come from, highest first: the project (.slmcode/blocks/), the user (~/.slmcode/blocks/, or
$SLMCODE_HOME/blocks/), each folder on SLMCODE_BLOCKS_PATH in order, and the built-in blocks shipped in the
package. A block (kind and id) from a higher layer hides the same block below it: project blocks always win.

Except the project's blocks that name commands (quality blocks, pipelines with their hooks and slots, agents
reaching MCP tools) while the user has not trusted the workspace (slmcode.trust): those are left out, so the
same block of a lower layer (the language pack's own quality block) applies, and a project pack that needed
one of them is left out too.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from slmcode import trust
from slmcode.blocks.loader import block_files, parsed_blocks
from slmcode.blocks.schema import AgentBlock, Block, PackBlock
from slmcode.errors import BlockError
from slmcode.store.paths import BLOCKS_DIR, STATE_DIR, user_state_dir
from slmcode.store.yamlread import WorkspaceFiles, parse_file, read_workspace

BUILTIN_DIR = Path(__file__).parent / "builtin"
PROJECT_BLOCKS = Path(STATE_DIR) / BLOCKS_DIR
PATH_ENV = "SLMCODE_BLOCKS_PATH"


@dataclass(frozen=True)
class Layer:
    name: str  # project | user | path | builtin
    folder: Path


@dataclass(frozen=True)
class SourcedBlock:
    block: Block
    path: Path
    layer: str
    hides: tuple[Path, ...] = ()  # the same block in lower layers, which this one overrides


@dataclass(frozen=True)
class Catalog:
    """Every visible block by ref ("kind/id"), sorted by ref."""

    blocks: dict[str, SourcedBlock] = field(default_factory=dict)
    ignored: tuple[str, ...] = ()  # the untrusted project's refs left out

    def get(self, kind: str, block_id: str) -> SourcedBlock | None:
        return self.blocks.get(f"{kind}/{block_id}")

    def of_kind(self, kind: str) -> list[SourcedBlock]:
        return [b for ref, b in self.blocks.items() if ref.startswith(kind + "/")]

    def find(self, name: str) -> list[SourcedBlock]:
        """Blocks named `name`: a full ref ("pack/python") or a bare id matching any kind."""
        if name in self.blocks:
            return [self.blocks[name]]
        return [b for b in self.blocks.values() if b.block.id == name]


def layers(workspace: Path | str, environ: Mapping[str, str] | None = None) -> list[Layer]:
    environ = os.environ if environ is None else environ
    home = user_state_dir(environ)
    extra = [Path(p) for p in environ.get(PATH_ENV, "").split(os.pathsep) if p]
    return [
        Layer("project", Path(workspace) / PROJECT_BLOCKS),
        Layer("user", home / BLOCKS_DIR),
        *(Layer("path", folder) for folder in extra),
        Layer("builtin", BUILTIN_DIR),
    ]


def _load_layer(layer: Layer, files: WorkspaceFiles | None = None) -> dict[str, tuple[Block, Path]]:
    """A layer's blocks; the project's from `files`, the one reading trust decides from too."""
    found: dict[str, tuple[Block, Path]] = {}
    parsed = files.blocks if files is not None else [parse_file(p) for p in block_files(layer.folder)]
    for one in parsed:
        path = one.path
        for block in parsed_blocks(one):
            if block.ref in found:
                raise BlockError(f"{path}: {block.ref} is defined again (first in {found[block.ref][1]})")
            found[block.ref] = (block, path)
    return found


def _untrusted_left_out(
    workspace: Path | str,
    files: WorkspaceFiles,
    found: dict[str, tuple[Block, Path]],
    environ: Mapping[str, str] | None,
) -> list[str]:
    """The project's refs that need trust, when the user has not given it."""
    needing = [
        ref
        for ref, (block, _) in found.items()
        if trust.is_widening_block(block.kind, block.tools if isinstance(block, AgentBlock) else None)
    ]
    return [] if not needing or trust.is_trusted(Path(workspace), environ, files) else needing


def _stranded_packs(visible: dict[str, SourcedBlock]) -> list[str]:
    """Project packs naming a pipeline, quality block or agent that is no longer there."""
    stranded = []
    for ref, sourced in visible.items():
        pack = sourced.block
        if sourced.layer == "project" and isinstance(pack, PackBlock):
            needed = [f"pipeline/{pack.pipeline}", f"quality/{pack.quality_id}", *(f"agent/{a}" for a in pack.agents)]
            if any(n not in visible for n in needed):
                stranded.append(ref)
    return stranded


def discover_blocks(workspace: Path | str, environ: Mapping[str, str] | None = None) -> Catalog:
    """All blocks visible from `workspace`; a malformed block anywhere is a BlockError naming its file."""
    visible: dict[str, SourcedBlock] = {}
    ignored: list[str] = []
    for layer in layers(workspace, environ):
        files = read_workspace(workspace) if layer.name == "project" else None
        found = _load_layer(layer, files)
        if files is not None:
            ignored = _untrusted_left_out(workspace, files, found, environ)
            found = {ref: f for ref, f in found.items() if ref not in ignored}
        for ref, (block, path) in found.items():
            if ref in visible:
                top = visible[ref]
                visible[ref] = SourcedBlock(top.block, top.path, top.layer, (*top.hides, path))
            else:
                visible[ref] = SourcedBlock(block, path, layer.name)
    if ignored:
        for ref in _stranded_packs(visible):
            del visible[ref]
            ignored.append(ref)
    return Catalog(dict(sorted(visible.items())), tuple(ignored))
