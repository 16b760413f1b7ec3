"""A git run's record, `.slmcode/gitrun/RUN_ID.json`: what the run needs to find its way back.

Written before the run touches anything (after a stash, before the checkout), so a run killed at any point
knows the user's branch, the commit it started from and the stash holding the user's uncommitted work.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel

from slmcode.errors import GitRunError
from slmcode.store.atomic import atomic_write_text
from slmcode.store.paths import GITRUN_DIR, prepare_state_folder, state_dir, state_path

GitMode = Literal["branch", "in-place"]
RunState = Literal["running", "finished", "accepted", "undone"]
BRANCH_PREFIX = "slmcode/"
LEFTOVERS = "refs/slmcode/leftovers/"
RETIRED = "refs/slmcode/retired/"


class RunRecord(BaseModel):
    run_id: str
    mode: GitMode
    branch: str  # where the run's task commits go: slmcode/RUN_ID, or the user's branch in place
    user_branch: str | None  # the branch to return to; None when the user's HEAD was detached
    base: str  # the user's HEAD when the run started: the run's commits are base..branch
    stash: str | None = None  # the commit of the stash holding the user's uncommitted work, until restored
    state: RunState = "running"
    accepted_into: str | None = None  # the user's branch once `accept` brought the run's commits there
    leftovers: str | None = None  # ref of what the run left uncommitted when it ended

    @property
    def on_user_branch(self) -> bool:
        """The run's commits are in the user's history (in place, or accepted): undo reverts, never rewrites."""
        return self.mode == "in-place" or self.state == "accepted"


def records_dir(workspace: Path) -> Path:
    return state_path(workspace, GITRUN_DIR)


def record_path(workspace: Path, run_id: str) -> Path:
    return records_dir(workspace) / f"{run_id}.json"


def save_record(workspace: Path, record: RunRecord) -> None:
    prepare_state_folder(state_dir(workspace))
    records_dir(workspace).mkdir(parents=True, exist_ok=True)
    atomic_write_text(record_path(workspace, record.run_id), record.model_dump_json(indent=1))


def load_record(workspace: Path, run_id: str) -> RunRecord | None:
    path = record_path(workspace, run_id)
    if not path.is_file():
        return None
    try:
        return RunRecord.model_validate_json(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise GitRunError(f"{path} is not a valid git run record ({str(exc).splitlines()[0]})") from None


def all_records(workspace: Path) -> list[RunRecord]:
    """Every git run of the workspace, oldest first (run ids sort by their start time)."""
    folder = records_dir(workspace)
    found = [load_record(workspace, p.stem) for p in sorted(folder.glob("*.json"))] if folder.is_dir() else []
    return [r for r in found if r is not None]
