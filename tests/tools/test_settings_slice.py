"""The tools receive their slice of the settings: what they may depend on is written in tools/settings.py."""

from __future__ import annotations

from pathlib import Path

from slmcode.config import Settings
from slmcode.tools import prompts
from slmcode.tools.context import ToolContext
from slmcode.tools.settings import ToolSettings
from slmcode.tools.shell import ShellResult, run_command


def test_a_tool_context_holds_the_tools_slice_with_the_run_values(tmp_path: Path) -> None:
    settings = Settings(model="m", permission="review", shell_timeout_seconds=7, sandbox_env=["LANG"])
    ctx = ToolContext(workspace=tmp_path, settings=settings)
    assert isinstance(ctx.settings, ToolSettings)
    assert (ctx.settings.permission, ctx.settings.shell_timeout_seconds, ctx.settings.sandbox_env) == (
        "review",
        7,
        ["LANG"],
    )
    assert not hasattr(ctx.settings, "model")  # a tool cannot start reading the model's knobs unnoticed


def test_a_shell_command_honours_the_slice_it_is_given(tmp_path: Path) -> None:
    denied = run_command(tmp_path, "true", ToolSettings.of(Settings(shell_permission="deny")))
    assert denied == prompts.SHELL_DENIED
    ran = run_command(tmp_path, "true", Settings())
    assert isinstance(ran, ShellResult) and ran.exit_code == 0
