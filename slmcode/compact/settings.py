"""The slice of the settings compaction reads: the budget's, plus the ladder's hysteresis and breaker and the
permission mode (the carryover names where writes went). `opening_room` builds the tools to count their
schemas, so the tools' slice comes along (tools.settings.ToolSettings takes it from here)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from slmcode.budget.settings import BudgetSettings

if TYPE_CHECKING:
    from slmcode.settings import Permission, ShellPermission


class CompactSettings(BudgetSettings, Protocol):
    compact_hysteresis_percent: float
    compact_max_failures: int
    permission: Permission
    shell_permission: ShellPermission
    shell_timeout_seconds: float
    shell_extra_commands: list[str]
    max_read_bytes: int
    tool_output_capture_bytes: int
    sandbox_network: bool
    sandbox_read_paths: list[str]
    sandbox_env: list[str]
    sandbox_max_processes: int
    sandbox_max_memory_mb: int
    sandbox_max_file_mb: int
    sandbox_max_cpu_seconds: int
    sandbox_max_scratch_mb: int
