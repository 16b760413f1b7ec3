"""An attempt in a process of its own, the one way every suite runs one: the bundled suite's (eval/attempt.py,
started by eval/runner.py) and the standard suites' (eval/suites/attempt.py, started by eval/suites/run.py).

A deadline must end an attempt whole, its sandboxed commands with it, so the attempt is a child in its own
session, killed as a group at the deadline; it reads a JSON spec on stdin and writes its record as the last
JSON line of stdout. The attempts of a suite run `parallel` at a time, each result handed on as it lands."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from slmcode.environment import LocalEnvironment

GIT_ENV = {
    "GIT_AUTHOR_NAME": "slmcode-eval",
    "GIT_AUTHOR_EMAIL": "eval@localhost",
    "GIT_COMMITTER_NAME": "slmcode-eval",
    "GIT_COMMITTER_EMAIL": "eval@localhost",
}
STDERR_TAIL = 800  # what a crashed attempt's record keeps of its stderr
Item = TypeVar("Item")
Result = TypeVar("Result")


def child_env() -> dict[str, str]:
    """This interpreter's folder first on PATH, so `python -m pytest` in the sandbox finds the same Python."""
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    return {**os.environ, "PATH": path, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}


def commit_all(workspace: Path, message: str) -> Path:
    """A repository like a user's (the reviewer's evidence reads `git diff`), made through the Environment: inside
    the wall, and no hook or fsmonitor of any config runs on the commit."""
    env = LocalEnvironment(workspace)
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", message]):
        with contextlib.suppress(OSError):
            env.git(*args, write=True, env=GIT_ENV)
    return workspace


def spawn(module: str, spec: dict[str, Any], timeout: float) -> tuple[dict[str, Any] | None, bool, str]:
    """Run `python -m module` on the spec: (its record, or None; whether the deadline ended it; its stderr's tail
    when it crashed)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", module],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=child_env(),
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(json.dumps(spec), timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return None, True, ""
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        return None, False, err[-STDERR_TAIL:]
    return json.loads(lines[-1]), False, ""


def run_all(
    items: Sequence[Item], one: Callable[[Item], Result], *, parallel: int, on_result: Callable[[Result], None]
) -> list[Result]:
    """`one` over every item, `parallel` at a time; results in the items' order, each handed on as it lands."""

    def each(item: Item) -> Result:
        result = one(item)
        on_result(result)
        return result

    with ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
        return list(pool.map(each, items))
