"""ToolContext: what the workspace tools of one worker task share with the graph that runs them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from slmcode.config import Settings
from slmcode.environment import Environment, LocalEnvironment
from slmcode.tools.editformat import EditFormat
from slmcode.tools.settings import ToolSettings
from slmcode.tools.staging import StagingEnvironment


@dataclass
class ToolContext:
    """One task's view of the workspace.

    read_paths holds the workspace-relative paths read in this task (edits need a read first; the graph
    re-seeds it from the transcript on resume). files_changed lists files written to disk; staged_patches the
    ids of patches recorded instead (dry-run and review modes). confirm answers shell_permission "ask";
    skills looks up a skill card's body; allowed_commands extends the shell whitelist (the language pack's
    test, build, lint and format commands). environment is where commands run and files are written: the run's
    (RunContext.run_environment), else the local one the settings describe.
    """

    workspace: Path
    settings: Settings | ToolSettings  # kept as the tools' slice (tools.settings)
    run_id: str = "run"
    task_id: str = "task"
    read_paths: set[str] = field(default_factory=set)
    files_changed: list[str] = field(default_factory=list)
    confirm: Callable[[str], bool] | None = None
    skills: Callable[[str], str | None] | None = None
    allowed_commands: Sequence[str] = ()
    staged_patches: list[str] = field(default_factory=list)
    on_process: Callable[[int], None] | None = None  # hears each shell process group as it starts
    # hears each write to disk just before it happens (shown path, real path, new bytes): the before-images
    before_write: Callable[[str, Path, bytes], None] | None = None
    result_bytes: int | None = None  # what one result keeps inline on this model (compact.room); None: the setting
    write_guard: bool = True  # ws_write refuses an existing file (the quality block's gates.write_guard)
    edit: EditFormat = field(default_factory=EditFormat)  # the edit format; replace unless the worker says
    environment: Environment | None = None

    def __post_init__(self) -> None:
        self.settings = ToolSettings.of(self.settings)
        if self.environment is None:
            self.environment = LocalEnvironment.from_settings(self.workspace, self.settings)
        mode = self.settings.permission
        if mode != "auto" and not isinstance(self.environment, StagingEnvironment):
            # review, dry-run: the task's writes become patches; its programs see the workspace read-only
            self.environment = StagingEnvironment(self.environment, self.workspace, mode, self.run_id, self.task_id)

    @property
    def env(self) -> Environment:
        assert self.environment is not None  # set in __post_init__
        return self.environment

    @property
    def inline_bytes(self) -> int:
        return self.result_bytes or self.settings.tool_output_inline_bytes
