"""Where slmcode keeps a workspace's state: the one `.slmcode` folder and the names inside it.

Every store opens its file through these names, so a layout change is made here once. The folder carries its
own `.gitignore` (`*`): nothing of it (checkpoints, the trace, run files) may reach a user's commit through
`git add -A`.
"""

from __future__ import annotations

from pathlib import Path

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


def state_dir(workspace: Path | str) -> Path:
    """The workspace's .slmcode folder (not created)."""
    return Path(workspace) / STATE_DIR


def state_path(workspace: Path | str, *parts: str) -> Path:
    """A path inside the workspace's .slmcode folder (not created)."""
    return state_dir(workspace).joinpath(*parts)


def cache_file(workspace: Path | str, name: str) -> Path:
    """One of the derived caches (repo map, lexical index, embeddings): safe to delete, rebuilt on demand."""
    return state_path(workspace, CACHE_DIR, name)


def prepare_state_folder(folder: Path) -> Path:
    """Create a .slmcode folder with its own .gitignore (`*`)."""
    folder.mkdir(parents=True, exist_ok=True)
    ignore = folder / GITIGNORE
    if folder.name == STATE_DIR and not ignore.exists():
        atomic_write_text(ignore, "# written by slmcode: its state stays out of commits\n*\n")
    return folder
