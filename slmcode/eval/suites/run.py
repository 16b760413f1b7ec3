"""Running standard-suite items: a workspace per item in a temp folder (the exercise copied and committed, or the
instance's repository cloned at its base commit), the attempt in its own process with a deadline, `parallel`
at a time, each result handed to a callback as it lands."""

from __future__ import annotations

import re
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from slmcode.eval.harness import AgentRun, trace_figures
from slmcode.eval.process import run_all, spawn
from slmcode.eval.suites.attempt import SuiteAttempt, settle


@dataclass(frozen=True)
class Item:
    suite: str  # polyglot | swebench
    id: str
    group: str
    data: dict[str, Any]  # what the attempt's process loads the item from
    prepare: Callable[[Path], Path]  # makes the workspace at the given path
    changed: Callable[[Path], list[str]]  # what the agent changed there (read when the attempt was killed)


def folder_name(item_id: str) -> str:
    """The item's workspace folder: its id (from a checkout or a JSONL) as one plain name, never `..` or a path."""
    return re.sub(r"[^A-Za-z0-9_.-]", "-", item_id).lstrip(".") or "item"


def _unfinished(
    item: Item, spec: dict[str, Any], workspace: Path, timed_out: bool, why: str, seconds: float
) -> SuiteAttempt:
    """Killed at its deadline, crashed, or never started: recorded from what the workspace and trace show."""
    run = trace_figures(workspace, f"{spec['run_id']}-try1") if workspace.is_dir() else AgentRun()
    run.signals.error = "" if timed_out else (why.strip().splitlines() or ["the attempt crashed"])[-1][:500]
    files = item.changed(workspace) if workspace.is_dir() else []
    return settle(spec, run, tries=[False], files=files, timed_out=timed_out, seconds=seconds, grade_output=why)


def run_item(
    item: Item, settings: dict[str, Any], *, tries: int, timeout: float, grade_timeout: float, keep: Path | None = None
) -> SuiteAttempt:
    """One item end to end; never raises for a failed attempt."""
    safe = folder_name(item.id)
    root = Path(tempfile.mkdtemp(prefix=f"slmcode-{item.suite}-{safe}-"))
    workspace = root / safe
    spec = {
        "suite": item.suite,
        "id": item.id,
        "group": item.group,
        "item": item.data,
        "tries": tries,
        "workspace": str(workspace),
        "run_id": f"eval-{safe}",
        "settings": settings,
        "grade_timeout": grade_timeout,
    }
    started = time.monotonic()
    try:
        try:
            item.prepare(workspace)
        except Exception as exc:  # a clone that fails to copy: this item's error, the suite goes on
            return _unfinished(item, spec, workspace, False, f"{type(exc).__name__}: {exc}", 0.0)
        record, timed_out, stderr = spawn("slmcode.eval.suites.attempt", spec, timeout)
        if record is not None:
            return SuiteAttempt(**record)
        return _unfinished(item, spec, workspace, timed_out, stderr, time.monotonic() - started)
    finally:
        if keep is not None and workspace.is_dir():
            shutil.copytree(
                workspace,
                keep / safe,
                dirs_exist_ok=True,
                symlinks=True,
                ignore=shutil.ignore_patterns("target", "node_modules", "build"),
            )
        shutil.rmtree(root, ignore_errors=True)


def run_items(
    items: list[Item],
    settings: dict[str, Any],
    *,
    tries: int,
    parallel: int,
    timeout: float,
    grade_timeout: float,
    on_result: Callable[[SuiteAttempt], None],
    keep: Path | None = None,
) -> list[SuiteAttempt]:
    """Every item, `parallel` at a time; results in the items' order."""

    def one(item: Item) -> SuiteAttempt:
        return run_item(item, settings, tries=tries, timeout=timeout, grade_timeout=grade_timeout, keep=keep)

    return run_all(items, one, parallel=parallel, on_result=on_result)
