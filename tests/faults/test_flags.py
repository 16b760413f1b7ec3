"""A flag's value a user mistypes: an unknown --role, a --focus file that is not there, a --budget of zero.
Each is exit 2 and one line naming the flag and what it expected, never a pack built without what was asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.faults.harness import slmcode_here
from tests.graph.scenario import make_repo


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path)


@pytest.mark.parametrize("command", [["pack", "--query", "divide"], ["budget"]])
def test_an_unknown_role_names_the_closest_and_every_known_role(command: list[str], repo: Path) -> None:
    # Before: accepted silently, with the default share and a generic prompt no run ever builds.
    done = slmcode_here(*command, "--role", "wroker", "-w", repo)
    assert done.code == 2 and done.out == ""
    line = done.error_line()
    assert line.startswith("error: --role: unknown role 'wroker' (did you mean 'worker'? known roles: ")
    assert all(f" {role}," in line for role in ("planner", "reviewer", "explorer", "context", "corrector"))


def test_a_role_only_an_agent_block_names_is_known(repo: Path) -> None:
    blocks = repo / ".slmcode" / "blocks"
    blocks.mkdir(parents=True, exist_ok=True)
    (blocks / "auditor.yaml").write_text("api_version: blocks/v1\nkind: agent\nid: auditor\nrole: security\n")
    assert slmcode_here("pack", "--query", "divide", "--role", "security", "-w", repo).code == 0
    typo = slmcode_here("budget", "--role", "securty", "-w", repo)
    assert "did you mean 'security'?" in typo.error_line()


@pytest.mark.parametrize("command", [["pack", "--query", "divide"], ["map"]])
@pytest.mark.parametrize(
    ("focus", "says"),
    [
        ("calc/missing.py", "--focus: calc/missing.py: no such file in {repo}"),
        ("calc", "--focus: calc is a folder; name a file"),
        ("../outside.py", "--focus: ../outside.py is outside the workspace"),
    ],
)
def test_a_focus_file_that_is_not_a_workspace_file_is_named(
    command: list[str], focus: str, says: str, repo: Path
) -> None:
    # Before: the pack (or map) was built without it, exit 0: a typo in a path went unnoticed.
    (repo.parent / "outside.py").write_text("SECRET = 1\n")
    done = slmcode_here(*command, "--focus", focus, "-w", repo)
    assert done.code == 2 and done.out == ""
    assert done.error_line().startswith("error: " + says.format(repo=repo.resolve()))


def test_a_focus_file_given_by_its_full_path_is_the_workspace_file(repo: Path) -> None:
    by_name = slmcode_here("pack", "--query", "divide", "--focus", "calc/ops.py", "-w", repo)
    by_path = slmcode_here("pack", "--query", "divide", "--focus", str(repo / "calc" / "ops.py"), "-w", repo)
    assert by_name.code == by_path.code == 0
    assert "calc/ops.py" in by_name.out and by_path.out == by_name.out


@pytest.mark.parametrize("command", [["pack", "--query", "divide"], ["map"]])
@pytest.mark.parametrize("budget", ["0", "-5"])
def test_a_budget_that_is_not_positive_is_one_line(command: list[str], budget: str, repo: Path) -> None:
    # Before: pack drew typer's boxed usage error over several lines.
    done = slmcode_here(*command, "--budget", budget, "-w", repo)
    assert done.code == 2
    assert done.error_line() == f"error: --budget: expected a positive number of tokens, got {budget}"


@pytest.mark.parametrize(
    ("flag", "value", "unit"),
    [
        ("--tasks", "0", "tasks"),
        ("--jobs", "-1", "attempts at a time"),
        ("--timeout", "0", "seconds"),
    ],
)
def test_an_eval_count_or_timeout_that_is_not_positive_is_one_line(flag: str, value: str, unit: str) -> None:
    # Before: --tasks 0 measured nothing, --timeout 0 reported every task as timed out, --jobs 0 ran one at a time.
    done = slmcode_here("eval", "--replay", flag, value)
    assert done.code == 2 and done.out == ""
    assert done.error_line() == f"error: {flag}: expected a positive number of {unit}, got {value}"
