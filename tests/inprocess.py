"""The real command line in this process: `main()` with its argv, the environment and folder it would get, and
what a user sees on stdout and stderr, as a `subprocess.CompletedProcess` so a test reads it like a child's.

A subprocess pays the interpreter's start and slmcode's imports (1-2 CPU-seconds) on every call; the tests that
only read what a command prints or how it exits use this instead. Start-up, signals, a killed process and the
exit status seen by a shell keep their subprocesses (tests/test_cli.py, tests/test_cli_startup.py, tests/faults).
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path


@contextlib.contextmanager
def _environment(env: Mapping[str, str] | None, cwd: Path | str | None) -> Iterator[None]:
    saved_env, saved_cwd, saved_argv = dict(os.environ), os.getcwd(), sys.argv
    try:
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
        if cwd is not None:
            os.chdir(cwd)
        yield
    finally:
        sys.argv = saved_argv
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)


def slmcode(
    *args: str, env: Mapping[str, str] | None = None, cwd: Path | str | None = None, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """Run `slmcode ARGS` through `slmcode.cli.main`, as the console script does; `env` replaces the
    environment for the call (as `subprocess.run(env=...)` does)."""
    from slmcode.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = 0
    with _environment(env, cwd), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        saved_stdin = sys.stdin
        sys.stdin = io.StringIO(stdin)
        sys.argv = ["slmcode", *args]
        try:
            main()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            if isinstance(exc.code, str):
                err.write(exc.code + "\n")
        finally:
            sys.stdin = saved_stdin
    return subprocess.CompletedProcess(["slmcode", *args], code, out.getvalue(), err.getvalue())
