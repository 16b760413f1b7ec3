"""LocalEnvironment, today's Environment: files only under the workspace's rules, programs only inside the jail."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from slmcode.environment import Environment, LocalEnvironment
from tests.sandboxcheck import needs_sandbox


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "src").mkdir(parents=True)
    (root / "src" / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    (root / "build").mkdir()
    (root / "build" / "out.py").write_text("def add(a, b):\n    pass\n")
    (root / ".gitignore").write_text("build/\n")
    (tmp_path / "outside.txt").write_text("SECRET\n")
    (root / "link_out").symlink_to(tmp_path / "outside.txt")
    return root


def test_it_is_an_environment(ws: Path) -> None:
    assert isinstance(LocalEnvironment(ws), Environment)


def test_reads_and_writes_stay_inside_the_workspace(ws: Path, tmp_path: Path) -> None:
    env = LocalEnvironment(ws)
    env.write("src/new/mod.py", b"x = 1\n")
    assert env.read("src/new/mod.py") == b"x = 1\n"
    for path in ("../outside.txt", "link_out", str(tmp_path / "outside.txt")):
        with pytest.raises(ValueError):
            env.read(path)
    with pytest.raises(ValueError):
        env.write("../escaped.txt", b"x")
    with pytest.raises(ValueError):
        env.write(".git/hooks/pre-commit", b"#!/bin/sh\n")
    assert not (tmp_path / "escaped.txt").exists() and not (ws / ".git").exists()


def test_walk_and_search_honour_gitignore_with_or_without_git(ws: Path) -> None:
    env = LocalEnvironment(ws)
    plain = env.walk()
    assert "src/calc.py" in plain and "build/out.py" not in plain
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    assert env.walk() == sorted(plain)
    assert env.search(r"return a \+ b") == [("src/calc.py", 2, "    return a + b")]


def test_a_program_runs_inside_the_wall(ws: Path, tmp_path: Path) -> None:
    env = LocalEnvironment(ws)
    done = env.run(
        ["sh", "-c", f"echo made > made.txt; echo out > {tmp_path}/escaped.txt; cat {tmp_path}/outside.txt"], timeout=30
    )
    assert (ws / "made.txt").read_text() == "made\n"
    assert not (tmp_path / "escaped.txt").exists()
    assert b"SECRET" not in done.stdout
    read_only = LocalEnvironment(ws, writable=False).run(["sh", "-c", "echo x > other.txt"], timeout=30)
    assert read_only.returncode != 0 and not (ws / "other.txt").exists()


def test_git_through_the_environment_writes_only_where_asked(ws: Path) -> None:
    env = LocalEnvironment(ws)
    assert env.git("init", "-q").ok
    ident = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    assert env.git("add", "-A").ok
    assert not env.git("commit", "-qm", "read-only", write=False, env=ident).ok  # .git bound read-only
    assert env.git("commit", "-qm", "first", env=ident).ok
    assert env.git("log", "--format=%s").stdout.decode().split() == ["first"]


@needs_sandbox
def test_a_relative_workspace_is_the_folder_it_names(ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`slmcode chat` in the repository, `-w .`: git inside the wall must see the repository, not nothing."""
    LocalEnvironment(ws).git("init", "-q")
    monkeypatch.chdir(ws)
    env = LocalEnvironment(Path("."))
    assert env.workspace == ws
    listed = env.git("ls-files", "--others", "--exclude-standard", write=False)
    assert listed.ok and "src/calc.py" in listed.stdout.decode()
