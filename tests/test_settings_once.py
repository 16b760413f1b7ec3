"""`slmcode run` reads the settings once: the command's check, the task bound, the run's record and every node
use the same resolved settings. Counted as what the disk sees: how often the run opens the workspace's
config.yaml, against one reading of it (before: four readings from the command to the first node). The file's
parse is kept while the file is unchanged (store.yamlread), so trust and every load decide from that one reading."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from slmcode.config import load_settings
from tests.fake_llm import FakeLLM
from tests.faults.harness import environment, run_args, scripted, slmcode_here
from tests.graph.scenario import make_repo

pytestmark = pytest.mark.slow
OPENED: dict[str, list[str]] = {}  # config path -> one entry per open, while a test watches it


def _watch(event: str, args: tuple) -> None:
    if event == "open" and OPENED and isinstance(args[0], str | os.PathLike):
        path = os.fspath(args[0])
        if path in OPENED:
            OPENED[path].append(event)


sys.addaudithook(_watch)  # audit hooks stay for the process's life: it counts only the paths a test put in OPENED


def opens_of(path: Path, action) -> int:
    OPENED[str(path)] = []
    try:
        action()
        return len(OPENED[str(path)])
    finally:
        del OPENED[str(path)]


def test_a_run_reads_its_settings_once(tmp_path: Path, fake_llm: FakeLLM) -> None:
    repo = make_repo(tmp_path)
    config = repo / ".slmcode" / "config.yaml"
    config.parent.mkdir(exist_ok=True)
    config.write_text("max_retries: 2\n")
    one_reading = opens_of(config, lambda: load_settings(repo, environ=environment()))
    assert one_reading == 1
    assert opens_of(config, lambda: load_settings(repo, environ=environment())) == 0  # unchanged: kept
    config.write_text("max_retries: 2  # changed\n")
    scripted(fake_llm)
    done = []
    opened = opens_of(config, lambda: done.append(slmcode_here(*run_args(repo, fake_llm.url))))
    assert done[0].code == 0, done[0].err[-2000:]
    assert opened == one_reading
