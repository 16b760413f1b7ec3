"""Undo and rewind in a folder without git: files restored from the journal's before-images."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from slmcode.cli import app
from slmcode.errors import GitRunError
from slmcode.gitrun import images
from slmcode.store.before_images import keep_before_image
from tests.fake_llm import FakeLLM
from tests.gitrun.helpers import scripted_run, slmcode
from tests.graph.scenario import make_repo, python_on_path

RUN = "run-20260101-000000-beef"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PATH", python_on_path())
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    repo = make_repo(tmp_path)
    shutil.rmtree(repo / ".git")
    return repo


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not {".slmcode", "__pycache__", ".pytest_cache"} & set(p.relative_to(folder).parts)
    }


def test_a_runs_edits_are_undone_from_the_journal_exactly(fake_llm: FakeLLM, folder: Path) -> None:
    before = _snapshot(folder)
    result = scripted_run(fake_llm, folder)
    assert result.outcome == "done", result.outcome
    assert _snapshot(folder) != before
    code = next(t for t in result.tasks if t.kind == "code")
    preview = CliRunner().invoke(app, ["undo", result.run_id, "--dry-run", "-w", str(folder)])
    assert preview.exit_code == 0, preview.output
    assert "M calc/ops.py" in preview.output and "M tests/test_ops.py" in preview.output
    assert "return a / b" in (folder / "calc" / "ops.py").read_text()  # a dry run changes nothing
    undone = CliRunner().invoke(app, ["undo", code.id, "--run", result.run_id, "-w", str(folder)])
    assert undone.exit_code == 0, undone.output
    assert _snapshot(folder) == before


def _write(folder: Path, task: str, path: str, text: str) -> None:
    """What a tool's write does: the before-image first, then the file."""
    target = folder / path
    keep_before_image(folder, RUN, task, path, target, text.encode())
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text)


def test_rewind_restores_what_later_tasks_wrote_and_deletes_what_they_created(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("a0\n")
    _write(tmp_path, "t1", "a.txt", "a1\n")
    _write(tmp_path, "t2", "a.txt", "a2\n")
    _write(tmp_path, "t2", "new.txt", "n\n")
    _write(tmp_path, "t3", "a.txt", "a3\n")
    with pytest.raises(GitRunError, match=r"a\.txt was written again by task t2"):
        images.undo(tmp_path, RUN, "t1")
    outcome = images.rewind(tmp_path, RUN, "t1")
    assert sorted(outcome.changes) == [("D", "new.txt"), ("M", "a.txt")]
    assert (tmp_path / "a.txt").read_text() == "a1\n" and not (tmp_path / "new.txt").exists()
    images.undo(tmp_path, RUN, None)
    assert (tmp_path / "a.txt").read_text() == "a0\n"
    with pytest.raises(GitRunError, match="has no file changes to undo"):
        images.undo(tmp_path, RUN, None)


def test_a_file_changed_since_the_run_is_not_overwritten(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("a0\n")
    _write(tmp_path, "t1", "a.txt", "a1\n")
    (tmp_path / "a.txt").write_text("the user's own edit\n")
    result = slmcode("undo", RUN, "-w", str(tmp_path))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "a.txt changed since the run wrote it" in result.stderr
    assert (tmp_path / "a.txt").read_text() == "the user's own edit\n"


def test_unknown_runs_and_tasks_are_one_line(tmp_path: Path) -> None:
    _write(tmp_path, "t1", "a.txt", "a1\n")
    result = slmcode("rewind", "run-nope", "--to", "t1", "-w", str(tmp_path))
    assert result.returncode == 2 and "run 'run-nope' has no file changes to undo" in result.stderr
    with pytest.raises(GitRunError, match=r"task 't7' of run .* wrote no file \(tasks that did: t1\)"):
        images.undo(tmp_path, RUN, "t7")
