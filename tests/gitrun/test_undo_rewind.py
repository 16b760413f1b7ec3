"""accept, undo and rewind over a real git repository: a git run of three tasks made through GitRun itself
(the same calls the graph makes), then each operation, its dry run, and the user's mistakes."""

from __future__ import annotations

from pathlib import Path

import pytest

from slmcode.errors import GitRunError
from slmcode.gitrun.ops import accept, rewind, undo_run, undo_task
from slmcode.gitrun.run_record import load_record
from slmcode.gitrun.session import GitRun
from slmcode.state import Criterion, Task, Verdict
from tests.gitrun.helpers import branch_of, git, slmcode
from tests.graph.scenario import make_repo

RUN = "run-20260101-000000-abcd"
OPS = "calc/ops.py"


def _task(task_id: str, files: list[str]) -> Task:
    check = Criterion(text="the tests pass", verify="python -m pytest -q")
    return Task(
        id=task_id,
        title=f"task {task_id}",
        status="done",
        files_changed=files,
        attempts=1,
        verdicts=[Verdict(criterion=check, status="PASSED")],
    )


def three_task_run(repo: Path, mode: str = "branch") -> GitRun:
    """t1 edits calc/ops.py, t2 README.md, t3 adds calc/extra.py; each accepted (committed) in turn."""
    run = GitRun.start(repo, RUN, mode, stash=False)  # type: ignore[arg-type]
    done: list[Task] = []
    for task_id, path, text in (
        ("t1", OPS, None),
        ("t2", "README.md", "# calculator, edited\n"),
        ("t3", "calc/extra.py", "X = 1\n"),
    ):
        target = repo / path
        target.write_text(text if text is not None else target.read_text() + "\n# t1 was here\n")
        done.append(_task(task_id, [path]))
        assert run.commit_tasks(done) == [task_id]
    run.finish(done)
    return run


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path)
    (repo / "README.md").write_text("# calculator\n")
    git(repo, "add", "README.md")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "readme")
    return repo


def _at(repo: Path, ref: str, path: str) -> str | None:
    proc = __import__("subprocess").run(["git", "show", f"{ref}:{path}"], cwd=repo, capture_output=True, text=True)
    return proc.stdout if proc.returncode == 0 else None


def test_committing_again_after_a_resume_makes_no_second_commit(repo: Path) -> None:
    run = GitRun.start(repo, RUN, "branch", stash=False)
    (repo / OPS).write_text((repo / OPS).read_text() + "# edit\n")
    tasks = [_task("t1", [OPS])]
    assert run.commit_tasks(tasks) == ["t1"]
    again = GitRun.reopen(repo, RUN)  # what a resumed run does first
    assert again is not None and again.commit_tasks(tasks) == []
    assert git(repo, "rev-list", "--count", f"{run.record.base}..slmcode/{RUN}") == "1"


def test_undo_of_a_task_before_accept_reverts_it_on_the_run_branch_only(repo: Path) -> None:
    run = three_task_run(repo)
    before = {p: (repo / p).read_text() for p in (OPS, "README.md")}
    dry = undo_task(repo, RUN, "t2", dry_run=True)
    assert dry.changes == [("M", "README.md")]
    assert _at(repo, f"slmcode/{RUN}", "README.md") == "# calculator, edited\n"  # the dry run changed nothing
    undo_task(repo, RUN, "t2")
    branch = f"slmcode/{RUN}"
    assert _at(repo, branch, "README.md") == "# calculator\n"
    assert "t1 was here" in _at(repo, branch, OPS) and _at(repo, branch, "calc/extra.py") == "X = 1\n"
    assert {p: (repo / p).read_text() for p in before} == before  # the user's folder is untouched
    assert git(repo, "rev-parse", "HEAD") == run.record.base


def test_rewind_before_accept_moves_the_run_branch_back_and_keeps_the_old_tip(repo: Path) -> None:
    three_task_run(repo)
    branch = f"slmcode/{RUN}"
    old_tip = git(repo, "rev-parse", branch)
    outcome = rewind(repo, RUN, "t1")
    assert sorted(outcome.changes) == [("D", "calc/extra.py"), ("M", "README.md")]
    assert git(repo, "log", "-1", "--format=%(trailers:key=Slmcode-Task,valueonly)", branch).strip() == "t1"
    assert old_tip in git(repo, "for-each-ref", "--format=%(objectname)", "refs/slmcode/retired/")


def test_after_accept_undo_and_rewind_add_revert_commits_to_the_users_branch(repo: Path) -> None:
    three_task_run(repo)
    original_ops = _at(repo, "HEAD", OPS)
    accept(repo, RUN)
    accepted = git(repo, "rev-parse", "HEAD")
    assert (repo / "calc" / "extra.py").is_file()

    undo_task(repo, RUN, "t1")
    assert (repo / OPS).read_text() == original_ops
    assert (repo / "README.md").read_text() == "# calculator, edited\n"
    rewind(repo, RUN, "t1", dry_run=True)
    assert (repo / "calc" / "extra.py").is_file()  # dry run
    rewind(repo, RUN, "t1")
    assert not (repo / "calc" / "extra.py").exists() and (repo / "README.md").read_text() == "# calculator\n"
    assert git(repo, "merge-base", "--is-ancestor", accepted, "HEAD") == ""  # history kept, not rewritten
    assert git(repo, "status", "--porcelain") == ""


def test_undo_of_an_accepted_run_restores_every_file_of_its_base(repo: Path) -> None:
    run = three_task_run(repo)
    accept(repo, RUN)
    preview = undo_run(repo, RUN, dry_run=True)
    assert sorted(preview.changes) == [("D", "calc/extra.py"), ("M", "README.md"), ("M", OPS)]
    undo_run(repo, RUN)
    assert git(repo, "diff", "--name-only", run.record.base, "HEAD") == ""
    with pytest.raises(GitRunError, match="undone already"):
        undo_run(repo, RUN)


def test_undo_of_an_unaccepted_run_retires_its_branch_and_leaves_the_users_files(repo: Path) -> None:
    run = three_task_run(repo)
    outcome = undo_run(repo, RUN)
    assert "your files did not change" in outcome.message
    assert git(repo, "branch", "--list", f"slmcode/{RUN}") == ""
    assert git(repo, "rev-parse", f"refs/slmcode/retired/{RUN}")
    assert git(repo, "rev-parse", "HEAD") == run.record.base
    with pytest.raises(GitRunError, match="undone already"):
        accept(repo, RUN)


def test_an_interrupted_run_on_its_branch_is_abandoned_by_undo(repo: Path) -> None:
    user_branch = branch_of(repo)
    (repo / "notes.txt").write_text("mine\n")
    GitRun.start(repo, RUN, "branch", stash=True)
    (repo / OPS).write_text("half an edit\n")  # the run was killed here, on its branch
    with pytest.raises(GitRunError, match="has not finished"):
        accept(repo, RUN)
    undo_run(repo, RUN)
    assert branch_of(repo) == user_branch and (repo / "notes.txt").read_text() == "mine\n"
    assert "half an edit" not in (repo / OPS).read_text()
    assert load_record(repo, RUN).leftovers  # the half edit is kept, not lost
    assert _at(repo, f"refs/slmcode/leftovers/{RUN}", OPS) == "half an edit\n"


def test_in_place_runs_commit_on_the_users_branch_and_undo_reverts(repo: Path) -> None:
    user_branch, base = branch_of(repo), git(repo, "rev-parse", "HEAD")
    three_task_run(repo, mode="in-place")
    assert branch_of(repo) == user_branch
    assert git(repo, "rev-list", "--count", f"{base}..HEAD") == "3"
    with pytest.raises(GitRunError, match="ran in place"):
        accept(repo, RUN)
    undo_task(repo, RUN, "t3")
    assert not (repo / "calc" / "extra.py").exists()
    assert git(repo, "rev-list", "--count", f"{base}..HEAD") == "4"


def test_user_mistakes_are_one_clear_line(repo: Path) -> None:
    three_task_run(repo)
    with pytest.raises(GitRunError, match="no git run 'run-nope'"):
        accept(repo, "run-nope")
    with pytest.raises(GitRunError, match=r"no commit for task 't9' \(its task commits: t1, t2, t3\)"):
        undo_task(repo, RUN, "t9")
    with pytest.raises(GitRunError, match="last commit: nothing to rewind"):
        rewind(repo, RUN, "t3")
    (repo / OPS).write_text("dirty\n")
    with pytest.raises(GitRunError, match=r"uncommitted changes in calc/ops\.py"):
        accept(repo, RUN)
    assert (repo / OPS).read_text() == "dirty\n"


def test_a_run_whose_branch_exists_already_is_refused_before_touching_anything(repo: Path) -> None:
    git(repo, "branch", f"slmcode/{RUN}")  # a branch of that name is already there
    (repo / "notes.txt").write_text("mine\n")
    with pytest.raises(GitRunError, match="exists already"):
        GitRun.start(repo, RUN, "branch", stash=True)
    assert (repo / "notes.txt").read_text() == "mine\n" and git(repo, "stash", "list") == ""


def test_the_command_line_lists_changes_and_says_mistakes_in_one_line(repo: Path) -> None:
    three_task_run(repo)
    preview = slmcode("accept", RUN, "--dry-run", "-w", str(repo))
    assert preview.returncode == 0, preview.stderr
    assert "accept would bring 3 commit(s)" in preview.stdout and "A calc/extra.py" in preview.stdout
    assert not (repo / "calc" / "extra.py").exists()
    as_json = slmcode("undo", "t2", "--run", RUN, "--dry-run", "--json", "-w", str(repo))
    assert '"path": "README.md"' in as_json.stdout and '"dry_run": true' in as_json.stdout
    wrong = slmcode("rewind", RUN, "--to", "t9", "-w", str(repo))
    assert wrong.returncode == 2 and wrong.stderr.count("\n") == 1 and "no commit for task 't9'" in wrong.stderr
    done = slmcode("accept", RUN, "-w", str(repo))
    assert done.returncode == 0 and "fast-forwarded" in done.stdout and (repo / "calc" / "extra.py").is_file()


def test_resuming_a_run_after_the_user_switched_back_returns_to_its_branch_or_says_why(repo: Path) -> None:
    user_branch = branch_of(repo)
    GitRun.start(repo, RUN, "branch", stash=False)
    git(repo, "checkout", "-q", user_branch)  # the user went back while the run was stopped
    (repo / OPS).write_text("my edit\n")
    with pytest.raises(GitRunError, match=r"uncommitted changes in calc/ops\.py: commit or stash them \("):
        GitRun.reopen(repo, RUN)
    assert (repo / OPS).read_text() == "my edit\n"
    git(repo, "checkout", "-q", "--", OPS)
    GitRun.reopen(repo, RUN)
    assert branch_of(repo) == f"slmcode/{RUN}"
