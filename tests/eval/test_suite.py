"""The suite itself: every task is solvable (its reference solution passes the hidden tests in the sandbox), not
solved already (the untouched repository fails them), its visible tests check the change (they fail before it
and pass after it, so verify has something to verify), and its hidden tests are not in what the agent gets."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from slmcode.errors import SlmcodeError
from slmcode.eval.grade import grade, run_tests
from slmcode.eval.overlay import BASES_DIR
from slmcode.eval.suite import copy_repo, load_suite, load_task, missing_toolchain, overlay

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


ON_A_BASE = [t for t in TASKS if t.base]


def test_a_task_on_a_shared_repository_ships_only_what_differs_from_it() -> None:
    """Thirty-odd tasks share three larger repositories; a copy of the base per task made the suite 1,974
    files. Each ships only its task-state files and its own check; its repository is laid out on use."""
    assert len(ON_A_BASE) >= 30
    for task in ON_A_BASE:
        shipped = {p.relative_to(task.folder / "repo") for p in (task.folder / "repo").rglob("*") if p.is_file()}
        base = BASES_DIR / task.base
        assert not [
            rel
            for rel in shipped
            if (base / rel).is_file() and (base / rel).read_bytes() == (task.folder / "repo" / rel).read_bytes()
        ]
        assert not (task.folder / "solution").exists()
        laid = {p.relative_to(task.repo) for p in task.repo.rglob("*") if p.is_file()}
        assert shipped < laid and len(laid) >= 15  # the base's other files are there for the agent to find
        touched = {Path(c.lstrip("+")) for c in task.changes}
        assert {p.relative_to(task.solution) for p in task.solution.rglob("*") if p.is_file()} == touched
        assert not [c for c in task.changes if c.startswith("+") and (task.repo / c[1:]).exists()]


def test_tasks_are_laid_out_in_a_private_folder_of_their_own() -> None:
    task = ON_A_BASE[0]
    scratch = task.repo.parent.parent
    assert scratch.name.startswith("slmcode-suite-") and scratch.name != "slmcode-suite-"
    assert scratch.stat().st_mode & 0o777 == 0o700 and scratch.stat().st_uid == os.getuid()


def test_a_task_naming_a_base_that_is_not_there_says_so(tmp_path: Path) -> None:
    folder = tmp_path / "py-x"
    (folder / "repo").mkdir(parents=True)
    (folder / "task.md").write_text("Fix it.\n")
    (folder / "meta.yaml").write_text("language: python\nkind: bug\ntitle: x\nbase: nowhere\n")
    with pytest.raises(SlmcodeError, match="names the files it changes"):
        load_task(folder)
    (folder / "meta.yaml").write_text("language: python\nkind: bug\ntitle: x\nbase: nowhere\nchanges: [a.py]\n")
    with pytest.raises(SlmcodeError, match="no base repository 'nowhere'"):
        _ = load_task(folder).repo
