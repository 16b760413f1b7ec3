"""A broken environment and broken state: a full disk (a 2 MB tmpfs), a read-only tree, a second run on the
same workspace, a lock left by a dead run, corrupt files under .slmcode, secrets handed to a run. Each ends
in one line naming what and where (exit 2), loses no file, writes no half file, and leaves `resume` able
to continue or to say why not."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from slmcode import api
from slmcode.store.atomic import TEMP_SUFFIX
from slmcode.store.runlock import LOCK_NAME, workspace_lock
from slmcode.store.trace import TraceStore
from slmcode.trust import trust_workspace
from tests.fake_llm import FakeLLM, Reply
from tests.faults.harness import (
    MODEL,
    QUERY,
    assert_resume_answers,
    assert_state_intact,
    resume_args,
    run_args,
    runs_status,
    scripted,
    slmcode,
    slmcode_here,
    tree_digest,
)
from tests.graph.scenario import make_repo

BROKEN = Reply(body="<html>bad gateway</html>", content_type="text/html")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path)


def mount_tmpfs(folder: Path, size: str = "2m") -> None:
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], capture_output=True, text=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip() or 'mount failed'}): needs root")


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MB tmpfs holding a copy of the fixture repository."""
    disk = tmp_path / "disk"
    mount_tmpfs(disk)
    try:
        shutil.copytree(make_repo(tmp_path / "src"), disk / "calculator")
        trust_workspace(disk / "calculator")  # a copy is another folder: trusted on its own, as a user would
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)


def fill(disk: Path, leave_bytes: int) -> Path:
    """Fill the disk until `leave_bytes` are free; returns the filler to delete."""
    filler = disk / "filler"
    free = shutil.disk_usage(disk).free
    with filler.open("wb") as out, contextlib.suppress(OSError):  # the tmpfs rounds to pages: it may run out first
        out.write(b"\0" * max(0, free - leave_bytes))
    return filler


def python_files_compile(repo: Path) -> None:
    """No source file is half written: every one still parses."""
    for path in repo.rglob("*.py"):
        if not {".slmcode", ".git"} & set(path.relative_to(repo).parts):
            compile(path.read_text(encoding="utf-8"), str(path), "exec")


@pytest.mark.parametrize("free_kb", [0, 16, 96, 400])
def test_a_full_disk_is_one_line_and_nothing_is_half_written(free_kb: int, small_disk: Path, fake_llm: FakeLLM) -> None:
    repo = small_disk / "calculator"
    scripted(fake_llm)
    before = tree_digest(repo)
    filler = fill(small_disk, free_kb * 1024)
    done = slmcode_here(*run_args(repo, fake_llm.url))
    if done.code != 0:
        assert done.code in (1, 2), done.err[-2000:]
        if done.code == 2:
            line = done.error_line()
            assert "the disk is full" in line, line
            assert str(small_disk) in line and TEMP_SUFFIX not in line
    python_files_compile(repo)
    if done.code == 2 and free_kb < 64:
        assert tree_digest(repo) == before
    filler.unlink()
    assert_state_intact(repo)
    assert_resume_answers(repo, fake_llm.url)


@pytest.fixture
def read_only_repo(tmp_path: Path) -> Iterator[Path]:
    disk = tmp_path / "ro"
    mount_tmpfs(disk, "8m")
    try:
        repo = disk / "calculator"
        shutil.copytree(make_repo(tmp_path / "src"), repo)
        trust_workspace(repo)  # a copy is another folder: trusted on its own, as a user would
        yield repo
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)


def remount_read_only(repo: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(repo.parent)], check=True)


def test_a_read_only_workspace_refuses_a_run_in_one_line(read_only_repo: Path, fake_llm: FakeLLM) -> None:
    scripted(fake_llm)
    remount_read_only(read_only_repo)
    before = tree_digest(read_only_repo)
    done = slmcode_here(*run_args(read_only_repo, fake_llm.url))
    assert done.code == 2
    line = done.error_line()
    assert "Read-only file system" in line and str(read_only_repo / ".slmcode") in line
    assert "the workspace is read-only" in line
    assert TEMP_SUFFIX not in line  # the file slmcode meant to write, never its temporary name
    assert tree_digest(read_only_repo) == before
    assert slmcode_here("status", "-w", read_only_repo).code == 0  # reading still works


def test_resume_in_a_workspace_made_read_only_says_so(read_only_repo: Path, fake_llm: FakeLLM) -> None:
    scripted(fake_llm, fault=BROKEN, role="worker", after=1)
    # In a process of its own: a file this process keeps open (a cache) would make the remount "busy".
    assert slmcode(*run_args(read_only_repo, fake_llm.url)).code == 2
    remount_read_only(read_only_repo)
    done = slmcode_here(*resume_args(read_only_repo, fake_llm.url))
    assert done.code == 2
    assert "the workspace is read-only (Read-only file system)" in done.error_line()
    assert TEMP_SUFFIX not in done.error_line()
    (run,) = runs_status(read_only_repo)
    assert run["status"] == "interrupted"  # still the run `resume` continues once the tree is writable
    assert slmcode_here("trace", "-w", read_only_repo).code == 0


@pytest.mark.parametrize("command", ["run", "resume"])
def test_a_second_writer_is_refused_naming_the_run_that_holds_the_workspace(
    command: str, repo: Path, fake_llm: FakeLLM
) -> None:
    scripted(fake_llm, fault=BROKEN)
    assert slmcode_here(*run_args(repo, fake_llm.url)).code == 2  # leaves a run to resume
    before = tree_digest(repo)
    with workspace_lock(repo, "run-holder"):
        args = run_args(repo, fake_llm.url) if command == "run" else resume_args(repo, fake_llm.url)
        done = slmcode_here(*args)
    assert done.code == 2
    line = done.error_line()
    assert f"workspace {repo} is in use by run run-holder (pid {os.getpid()}" in line
    assert tree_digest(repo) == before
    assert len(runs_status(repo)) == 1  # the refused run left no record


def test_two_runs_at_once_one_writes_the_other_is_refused(repo: Path, fake_llm: FakeLLM) -> None:
    scripted(fake_llm, fault=Reply(content='{"requirements": ["divide"], "questions": []}', delay=60))
    first = subprocess.Popen(
        [os.sys.executable, "-c", "from slmcode.cli import main; main()", *map(str, run_args(repo, fake_llm.url))],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        lock = repo / ".slmcode" / LOCK_NAME
        for _ in range(1200):
            if lock.is_file() and lock.read_text().strip():
                break
            if first.poll() is not None:
                pytest.fail(f"the first run ended early: exit {first.returncode}")
            time.sleep(0.1)
        second = slmcode_here(*run_args(repo, fake_llm.url))
        assert second.code == 2
        assert "in use by run run-" in second.error_line() and f"(pid {first.pid}" in second.error_line()
    finally:
        first.kill()
        first.wait()


def test_a_lock_left_by_a_dead_run_is_taken_over(repo: Path, fake_llm: FakeLLM) -> None:
    dead = subprocess.Popen(["true"])
    dead.wait()
    lock = repo / ".slmcode" / LOCK_NAME
    lock.parent.mkdir(exist_ok=True)
    lock.write_text(json.dumps({"run_id": "run-dead", "pid": dead.pid, "host": "here", "started": "earlier"}))
    scripted(fake_llm, fault=BROKEN)
    done = slmcode_here(*run_args(repo, fake_llm.url))
    assert done.code == 2 and "not a chat completion" in done.error_line()  # it ran: the lock did not stop it
    (run,) = runs_status(repo)
    with TraceStore.for_workspace(repo) as trace:
        taken = [e.data for e in trace.timeline(run["run_id"]) if e.kind == "lock_taken_over"]
    assert taken and "run run-dead" in taken[0]["holder"]
    assert lock.read_text() == ""  # released when the run ended


CORRUPTIONS = {
    "checkpoints.sqlite is not a database": ("checkpoints.sqlite", b"this is not sqlite" * 100, "checkpoint"),
    "trace.sqlite is not a database": ("trace.sqlite", b"garbage" * 300, "database"),
    "run.lock is a folder": ("run.lock", None, "run.lock"),
}


@pytest.mark.parametrize("case", sorted(CORRUPTIONS))
def test_corrupt_state_is_one_line_naming_the_file(case: str, repo: Path, fake_llm: FakeLLM) -> None:
    name, content, says = CORRUPTIONS[case]
    target = repo / ".slmcode" / name
    target.parent.mkdir(exist_ok=True)
    if content is None:
        target.mkdir()
    else:
        target.write_bytes(content)
    scripted(fake_llm)
    before = tree_digest(repo)
    done = slmcode_here(*run_args(repo, fake_llm.url))
    assert done.code == 2
    line = done.error_line()
    assert says in line and str(repo / ".slmcode") in line
    assert tree_digest(repo) == before
    if content is not None:
        assert target.read_bytes() == content  # never "repaired" by overwriting what the user may want back


def test_slmcode_state_as_a_file_is_one_line(repo: Path, fake_llm: FakeLLM) -> None:
    shutil.rmtree(repo / ".slmcode", ignore_errors=True)
    (repo / ".slmcode").write_text("oops\n")
    done = slmcode_here(*run_args(repo, fake_llm.url))
    assert done.code == 2 and str(repo / ".slmcode") in done.error_line()
    assert (repo / ".slmcode").read_text() == "oops\n"


def test_a_garbled_run_file_makes_resume_say_why(repo: Path, fake_llm: FakeLLM) -> None:
    scripted(fake_llm, fault=BROKEN)
    assert slmcode_here(*run_args(repo, fake_llm.url)).code == 2
    (run_file,) = (repo / ".slmcode" / "runs").glob("*.json")
    run_file.write_text('{"query": "Add a div')
    done = slmcode_here(*resume_args(repo, fake_llm.url))
    assert done.code == 2 and "unreadable" in done.error_line() and str(run_file) in done.error_line()


SECRET_KEY = "sk-test-SECRET-4f1c"
SECRET_PASSWORD = "pw-SECRET-9a7e"


def all_state_bytes(repo: Path) -> bytes:
    """Everything slmcode wrote under .slmcode (the user's own config.yaml left out)."""
    return b"".join(p.read_bytes() for p in (repo / ".slmcode").rglob("*") if p.is_file() and p.name != "config.yaml")


def test_no_key_or_url_password_is_stored_and_resume_asks_for_the_url(repo: Path, fake_llm: FakeLLM) -> None:
    scripted(fake_llm, fault=BROKEN, role="worker", after=1)
    url = fake_llm.url.replace("http://", f"http://user:{SECRET_PASSWORD}@")
    (repo / ".slmcode" / "config.yaml").write_text(f"roles:\n  planner:\n    base_url: {url}\n")
    with pytest.raises(Exception, match="not a chat completion"):
        api.run(QUERY, repo, api_key=SECRET_KEY, base_url=url, model=MODEL)
    stored = all_state_bytes(repo)
    assert b"user:***@" in stored  # the URL is kept for a reader, its password is not
    assert SECRET_KEY.encode() not in stored and SECRET_PASSWORD.encode() not in stored
    (repo / ".slmcode" / "config.yaml").unlink()
    done = slmcode_here("resume", "-w", repo, "--yes")
    assert done.code == 2 and "pass --base-url again" in done.error_line()
    assert SECRET_PASSWORD not in done.err


def test_nothing_of_slmcode_reaches_a_commit(repo: Path, fake_llm: FakeLLM) -> None:
    scripted(fake_llm, fault=BROKEN)
    slmcode_here(*run_args(repo, fake_llm.url))
    assert (repo / ".slmcode" / ".gitignore").read_text().splitlines()[-1] == "*"
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout
    assert ".slmcode" not in status


def test_api_refuses_an_empty_task_with_a_value_error(repo: Path) -> None:
    with pytest.raises(ValueError, match="the task is empty"):
        api.run("  ", repo, base_url="http://127.0.0.1:9/v1")
    assert not (repo / ".slmcode" / "runs").exists()


@pytest.mark.parametrize("name", ["journal.sqlite", "conversations.sqlite"])
def test_a_junk_run_database_is_named_and_resume_goes_on_once_it_is_moved_away(
    name: str, repo: Path, fake_llm: FakeLLM
) -> None:
    # Before: '<repo>/.slmcode: a database failed: file is not a database' (which of the folder's five?).
    junk = repo / ".slmcode" / name
    junk.parent.mkdir(exist_ok=True)
    junk.write_bytes(b"not sqlite" * 500)
    scripted(fake_llm)
    done = slmcode_here(*run_args(repo, fake_llm.url))
    assert done.code == 2
    assert done.error_line() == f"error: {junk}: file is not a database (move it away and slmcode starts a new one)"
    assert junk.read_bytes() == b"not sqlite" * 500
    junk.rename(junk.with_suffix(".broken"))
    again = assert_resume_answers(repo, fake_llm.url)  # the run goes on from its checkpoint
    assert again.code in (0, 1) and "run resumed" in again.out


def test_resume_of_a_run_whose_checkpoints_were_removed_says_so(repo: Path, fake_llm: FakeLLM) -> None:
    # Before: 'cannot be resumed: it stopped before its first checkpoint', for a run that had several.
    scripted(fake_llm, fault=BROKEN, role="worker")
    assert slmcode_here(*run_args(repo, fake_llm.url)).code == 2
    assert runs_status(repo)[0]["status"] == "interrupted"
    for saved in (repo / ".slmcode").glob("checkpoints.sqlite*"):
        saved.unlink()
    done = slmcode_here(*resume_args(repo, fake_llm.url))
    assert done.code == 2
    assert "cannot be resumed: its checkpoints are gone (was .slmcode/checkpoints.sqlite removed?)" in done.error_line()
    again = slmcode_here(*resume_args(repo, fake_llm.url, runs_status(repo)[0]["run_id"]))
    assert "cannot be resumed: its checkpoints are gone" in again.error_line()
