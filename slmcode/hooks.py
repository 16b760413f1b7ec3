"""Lifecycle hooks: the user's commands run at a run's events, from the pipeline block's `hooks:`.

    hooks:
      on_task_done: ["python3 scripts/notify.py"]
      on_verdict:   ["tee -a .verdicts.jsonl"]
      on_run_end:   ["ruff format ."]

Each command runs through tools/shell.py and the run's Environment like any command (no shell; locally the
bubblewrap sandbox: the workspace writable only in permission `auto`, no network unless sandbox_network),
with the event as one JSON object on stdin and the block's timeout. The user wrote these commands, so each
one's own programs are allowed (the agent's whitelist does not apply to them). A hook that fails, times out or
cannot run is a warning in the trace and on the board, never a failed run: a notifier must not cost the user
the work.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from slmcode.blocks.schema import Hooks
from slmcode.config import Settings
from slmcode.environment import Environment, LocalEnvironment
from slmcode.environment.containment import Refusal
from slmcode.tools.shell import execute, with_after
from slmcode.tools.shellparse import ParseRefusal, parse
from slmcode.tools.whitelist import build_whitelist, plan

EVENTS = ("on_task_done", "on_verdict", "on_run_end")
OUTPUT_BYTES = 4000  # what the trace keeps of a hook's output


@dataclass(frozen=True)
class HookResult:
    event: str
    command: str
    ok: bool
    detail: str  # the exit status and the output's tail, or why it could not run

    @property
    def warning(self) -> str:
        return f"hook {self.event} `{self.command}` failed: {self.detail}"


def _programs(command: str) -> list[str]:
    """The programs a hook line starts: the ones it may run."""
    try:
        steps = parse(command)
    except ParseRefusal:
        return []
    return sorted({c.words[0].text for s in steps for c in s.pipeline if c.words})


def run_hook(
    workspace: Path,
    settings: Settings,
    event: str,
    command: str,
    payload: dict[str, Any],
    timeout: float,
    environment: Environment | None = None,
) -> HookResult:
    """One hook command with `payload` as JSON on stdin, through `environment` (None: the local one these
    settings describe); never raises for the hook's own failure."""
    data = json.dumps({"event": event, **payload}, sort_keys=True, default=str).encode("utf-8")
    environment = environment or LocalEnvironment.from_settings(workspace, settings)
    with environment.command() as launcher:
        if launcher.unavailable:
            return HookResult(event, command, False, f"no sandbox to run it in ({launcher.unavailable})")
        try:
            steps = plan(workspace, command, build_whitelist(extra_commands=_programs(command)))
        except Refusal as exc:
            return HookResult(event, command, False, str(exc).removeprefix("Error: "))
        result = execute(launcher, command, steps, timeout, OUTPUT_BYTES, stdin=data)
    result = with_after(result, launcher)
    tail = result.output.strip()[-300:]
    if result.not_found:
        return HookResult(event, command, False, f"program '{result.not_found}' not found")
    if result.timed_out:
        return HookResult(event, command, False, f"timed out after {timeout:g} s")
    ok = result.exit_code == 0
    return HookResult(event, command, ok, f"exit {result.exit_code}" + (f": {tail}" if tail else ""))


def fire(
    workspace: Path,
    settings: Settings,
    hooks: Hooks,
    event: str,
    payload: dict[str, Any],
    report: Callable[[HookResult], None],
    environment: Environment | None = None,
) -> list[HookResult]:
    """Every command of `event` in order; `report` hears each result (the caller records it and warns)."""
    results = []
    for command in getattr(hooks, event):
        try:
            result = run_hook(workspace, settings, event, command, payload, hooks.timeout_seconds, environment)
        except Exception as exc:  # a hook must never fail the run, whatever broke
            result = HookResult(event, command, False, f"{type(exc).__name__}: {exc}")
        report(result)
        results.append(result)
    return results


def at_run_end(
    workspace: Path,
    settings: Settings,
    run_id: str,
    payload: dict[str, Any],
    record: Callable[[str, dict[str, Any]], None],
    environment: Environment | None = None,
) -> None:
    """The on_run_end hooks, for the API's end of a run (every status: done, failed, interrupted); `record`
    keeps each result as an event; `environment`: the run's, when it got that far (else the settings' local
    one). Nothing here raises: the run has already ended."""
    try:
        from slmcode.blocks.compose import resolve_pipeline

        hooks = resolve_pipeline(workspace, settings).hooks
    except Exception:  # the blocks broke: the run has reported that already, if it matters
        return

    def report(result: HookResult) -> None:
        if result.ok:
            record("hook", {"hook": result.event, "command": result.command, "ok": True})
        else:
            record(
                "hook_failed", {"hook": result.event, "command": result.command, "ok": False, "message": result.warning}
            )

    fire(workspace, settings, hooks, "on_run_end", {"run_id": run_id, **payload}, report, environment)
