"""Where slmcode keeps a workspace's state: the one `.slmcode` folder and the names inside it.

Every store opens its file through these names, so a layout change is made here once. The folder carries its
own `.gitignore` (`*`): nothing of it (checkpoints, the trace, run files) may reach a user's commit through
`git add -A`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from slmcode.errors import WorkspaceError
from slmcode.store.atomic import atomic_write_text

STATE_DIR = ".slmcode"
GITIGNORE = ".gitignore"

CHECKPOINTS = "checkpoints.sqlite"
TRACE = "trace.sqlite"
JOURNAL = "journal.sqlite"
CONVERSATIONS = "conversations.sqlite"
CACHE_DIR = "cache"
SCRATCH_DIR = "scratch"
PENDING_DIR = "pending"
DRY_RUN_DIR = "dry-run"
RUNS_DIR = "runs"
MCP_DIR = "mcp"
GITRUN_DIR = "gitrun"
EMBEDDINGS = "embeddings.sqlite"  # in CACHE_DIR

# What a workspace knows, some written by runs and some by its people (the same names under the user's folder
# for config and blocks).
CONFIG_FILE = "config.yaml"
BLOCKS_DIR = "blocks"
MEMORY_FILE = "MEMORY.md"
CONTEXT_FILE = "CONTEXT.md"
SESSIONS_DIR = "sessions"
SKILLS_DIR = "skills"
LEARNED_DIR = "learned"  # in SKILLS_DIR: the skills runs wrote
SKILL_FILE = "SKILL.md"
SKILLS_INDEX = "SKILLS.md"
PROJECT_NOTES = ("AGENTS.md", "PROJECT.md")  # instructions kept in the state folder, read after the root's
BLOCK_SUFFIXES = (".yaml", ".yml")
HOME_ENV = "SLMCODE_HOME"
TRUST_BOOK = "trusted.json"  # in the user's folder: the workspaces the user trusts (slmcode.trust)


def user_state_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The user's own folder (config, blocks): $SLMCODE_HOME, else ~/.slmcode."""
    environ = os.environ if environ is None else environ
    return Path(environ[HOME_ENV]) if environ.get(HOME_ENV) else Path.home() / STATE_DIR


def block_files(folder: Path) -> list[Path]:
    """The block files under `folder`, sorted, so every layer loads in the same order everywhere."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.suffix in BLOCK_SUFFIXES and p.is_file())


def state_dir(workspace: Path | str) -> Path:
    """The workspace's .slmcode folder (not created). A link there (shipped with a repository) would send every
    write of slmcode's own (patches, runs, before-images, attempt copies) wherever it points: refused."""
    return _not_a_link(Path(workspace) / STATE_DIR)


def _not_a_link(folder: Path) -> Path:
    if folder.is_symlink():
        raise WorkspaceError(f"{folder} is a symlink: slmcode keeps its state only in a real folder (remove the link)")
    return folder


def state_path(workspace: Path | str, *parts: str) -> Path:
    """A path inside the workspace's .slmcode folder (not created); a link inside it that leads out is refused
    as the folder's own link is."""
    folder = state_dir(workspace)
    path = folder.joinpath(*parts)
    real, root = os.path.realpath(path), os.path.realpath(folder)
    if real != root and not real.startswith(root + os.sep):
        raise WorkspaceError(f"{path} leads out of {folder} through a symlink (remove the link)")
    return path


def cache_file(workspace: Path | str, name: str) -> Path:
    """One of the derived caches (repo map, lexical index, embeddings): safe to delete, rebuilt on demand."""
    return state_path(workspace, CACHE_DIR, name)


def prepare_parent(path: Path) -> Path:
    """Create `path`'s folder; when it lies inside a .slmcode folder, that folder gets its .gitignore first, so
    whichever command creates the state folder (`map`, `pack`, `chat`, `run`), its caches never reach a commit."""
    state = next((f for f in (path.parent, *path.parent.parents) if f.name == STATE_DIR), None)
    if state is not None:
        prepare_state_folder(state)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path.parent


def prepare_state_folder(folder: Path) -> Path:
    """Create a .slmcode folder with its own .gitignore (`*`)."""
    _not_a_link(folder).mkdir(parents=True, exist_ok=True)
    ignore = folder / GITIGNORE
    if folder.name == STATE_DIR and not ignore.exists():
        atomic_write_text(ignore, "# written by slmcode: its state stays out of commits\n*\n")
    return folder
