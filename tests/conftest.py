"""Shared fixtures: the scripted model server and an isolated home for settings."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fake_llm import FakeLLM


@pytest.fixture
def fake_llm() -> Iterator[FakeLLM]:
    """A scripted OpenAI-compatible server on a free loopback port; stopped after the test."""
    with FakeLLM() as server:
        yield server


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No test reads the developer's ~/.slmcode or their SLMCODE_* variables."""
    home = tmp_path_factory.mktemp("slmcode-home")
    monkeypatch.setenv("SLMCODE_HOME", str(home))
    import os

    for key in list(os.environ):
        if key.startswith("SLMCODE_") and key != "SLMCODE_HOME":
            monkeypatch.delenv(key)
    return home
