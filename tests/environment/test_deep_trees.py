"""A repository that holds a folder 2,000 levels deep (a hostile checkout can ship one; a command can make one).
Python 3.11's os.walk, shutil.copytree and shutil.rmtree recurse once per level, and every walk of the
workspace raised RecursionError: `slmcode doctor` and a run stopped with an internal error. Through the real
command line and the real graph over the scripted server."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from slmcode.treewalk import remove_tree
from tests.fake_llm import FakeLLM
from tests.nodes.test_attempts import run
from tests.test_cli import slmcode

DEPTH = 2000


def _deep(root: Path) -> Path:
    """root/d/d/.../d/x.py, DEPTH folders down, made relative to each folder (the full path passes PATH_MAX)."""
    fd = os.open(root, os.O_RDONLY)
    for _ in range(DEPTH):
        os.mkdir("d", dir_fd=fd)
        child = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = child
    os.close(os.open("x.py", os.O_CREAT | os.O_WRONLY, dir_fd=fd))
    os.close(fd)
    return root / "d"


@pytest.fixture
def deep_repo(repo: Path) -> Iterator[Path]:
    with (repo / "pyproject.toml").open("a") as pyproject:  # the example's own tests walk only tests/
        pyproject.write('testpaths = ["tests"]\n')
    top = _deep(repo)
    yield repo
    remove_tree(top)  # pytest's own clean-up of tmp_path recurses too
    assert not top.exists()


def test_doctor_in_a_repository_with_a_very_deep_folder_answers(deep_repo: Path, fake_llm: FakeLLM) -> None:
    result = slmcode("doctor", "--base-url", fake_llm.url, "--workspace", str(deep_repo), "--json")
    assert result.returncode == 0, result.stderr
    assert "RecursionError" not in result.stdout + result.stderr


@pytest.mark.slow
def test_a_best_of_n_run_in_a_repository_with_a_very_deep_folder_ends_with_its_outcome(
    deep_repo: Path, fake_llm: FakeLLM
) -> None:
    result, events = run(fake_llm, deep_repo, attempts=2)  # test_attempts' run: attempt 2 passes, attempt 1 fails
    (settled,) = [e for e in events if e["kind"] == "attempts"]  # both copies were made, run and compared
    assert settled["won"] == 2
    assert "return a / b" in (deep_repo / "calc" / "ops.py").read_text()  # and the winner applied
    assert result.tasks[0].status == "done", result.outcome
