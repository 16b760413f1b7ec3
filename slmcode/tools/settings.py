"""The slice of the settings the workspace tools and the sandbox read, and nothing else.

A tool receives this view, not the 61-field whole: what a tool can depend on is written here, and a tool that
starts reading another knob has to say so. The values were validated when the settings were loaded; the view
copies them once per tool context (per worker step).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from slmcode.config import Settings
from slmcode.settings import Permission, ShellPermission


@dataclass(frozen=True)
class ToolSettings:
    permission: Permission  # where writes go
    shell_permission: ShellPermission
    shell_timeout_seconds: float
    shell_extra_commands: list[str]
    max_read_bytes: int
    tool_output_inline_bytes: int
    tool_output_capture_bytes: int
    sandbox_network: bool
    sandbox_read_paths: list[str]
    sandbox_env: list[str]
    sandbox_max_processes: int
    sandbox_max_memory_mb: int
    sandbox_max_file_mb: int
    sandbox_max_cpu_seconds: int
    sandbox_max_scratch_mb: int

    @classmethod
    def of(cls, settings: Settings | ToolSettings) -> ToolSettings:
        if isinstance(settings, ToolSettings):
            return settings
        return cls(**{f.name: getattr(settings, f.name) for f in fields(cls)})
