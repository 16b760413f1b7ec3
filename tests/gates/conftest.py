"""The calculator example as a fresh git repository, with this interpreter's pytest and ruff on PATH."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.graph.scenario import make_repo, python_on_path


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PATH", python_on_path())
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")  # the fixture's pytest starts in 0.5 s, not 3
    return make_repo(tmp_path)
