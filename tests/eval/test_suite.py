"""The suite itself: every task is solvable (its reference solution passes the hidden tests in the sandbox), not
solved already (the untouched repository fails them), its visible tests check the change (they fail before it
and pass after it, so verify has something to verify), and its hidden tests are not in what the agent gets."""

from __future__ import annotations

from pathlib import Path

import pytest

from slmcode.eval.grade import grade, run_tests
from slmcode.eval.suite import copy_repo, load_suite, missing_toolchain, overlay

TASKS = load_suite()


@pytest.mark.parametrize("task", TASKS, ids=[t.id for t in TASKS])
def test_the_agent_gets_the_repository_without_the_hidden_tests(task, tmp_path: Path) -> None:
    workspace = copy_repo(task, tmp_path / "ws")
    hidden = {p.relative_to(task.hidden) for p in task.hidden.rglob("*") if p.is_file()}
    assert hidden and not any((workspace / rel).exists() for rel in hidden)
    assert task.prompt and (task.solution).is_dir()


@pytest.mark.slow
@pytest.mark.parametrize("task", TASKS, ids=[t.id for t in TASKS])
def test_the_hidden_tests_fail_on_the_repository_and_pass_with_the_solution(
    task, tmp_path: Path, on_path: None
) -> None:
    if why := missing_toolchain(task.language):
        pytest.skip(why)
    assert not grade(task, copy_repo(task, tmp_path / "before")).passed
    after = copy_repo(task, tmp_path / "after")
    overlay(task.solution, after)
    graded = grade(task, after)
    assert graded.passed, graded.output


@pytest.mark.slow
@pytest.mark.parametrize("task", TASKS, ids=[t.id for t in TASKS])
def test_the_visible_tests_fail_on_the_repository_and_pass_with_the_solution(
    task, tmp_path: Path, on_path: None
) -> None:
    if why := missing_toolchain(task.language):
        pytest.skip(why)
    before = run_tests(task, copy_repo(task, tmp_path / "before"))
    assert not before.passed, f"the visible tests already pass before the change:\n{before.output}"
    after = copy_repo(task, tmp_path / "after")
    overlay(task.solution, after)
    graded = run_tests(task, after)
    assert graded.passed, graded.output
