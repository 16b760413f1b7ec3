"""What every test's process environment is: its own empty ~/.slmcode, none of the developer's SLMCODE_*
variables, and nested pytests without the venv's plugins. The autouse fixture applies it to each test; a module-
or session-scoped run made once for several tests (a shared finished run) applies it for itself, since it is set
up before any test's own fixtures."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest


def isolate(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    monkeypatch.setenv("SLMCODE_HOME", str(home))
    # Every pytest a test starts (criteria, graders, hooks) skips the venv's plugins: 1.2 s a start, not 9.
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    for key in list(os.environ):
        if key.startswith("SLMCODE_") and key != "SLMCODE_HOME":
            monkeypatch.delenv(key)


@contextlib.contextmanager
def isolated_environment(factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The same isolation for a run shared by a module, with this interpreter first on PATH (as the `repo` fixture
    gives) so its criteria's `python -m pytest` finds pytest; undone when the module ends."""
    from tests.graph.scenario import python_on_path

    with pytest.MonkeyPatch.context() as monkeypatch:
        home = factory.mktemp("slmcode-home")
        isolate(monkeypatch, home)
        monkeypatch.setenv("PATH", python_on_path())
        yield home
