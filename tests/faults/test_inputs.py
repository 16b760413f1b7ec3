"""Faults a clumsy user makes before any model is called: a workspace that is missing or a file, a broken
or non-UTF-8 config, a bad environment variable, an empty task, a typo in a model name, a run id that does
not exist. Each is exit 2 and one line naming what and where; nothing is created or changed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.faults.harness import environment, slmcode_here, tree_digest
from tests.graph.scenario import make_repo

# Every command that takes -w, with the arguments it needs to get as far as the workspace.
COMMANDS = {
    "run": ["run", "Add divide", "--base-url", "http://127.0.0.1:9/v1"],
    "resume": ["resume"],
    "status": ["status"],
    "trace": ["trace"],
    "map": ["map"],
    "pack": ["pack", "--query", "divide"],
    "compose": ["compose"],
    "memory": ["memory"],
    "context": ["context"],
    "config show": ["config", "show"],
    "budget": ["budget"],
    "doctor": ["doctor", "--base-url", "http://127.0.0.1:9/v1"],
    "init": ["init"],
    "diff": ["diff"],
    "apply": ["apply"],
    "session list": ["session", "list"],
    "skills list": ["skills", "list"],
    "blocks list": ["blocks", "list"],
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_missing_workspace_is_refused_and_never_created(command: str, tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "repo"
    done = slmcode_here(*COMMANDS[command], "-w", missing)
    assert done.code == 2
    line = done.error_line()
    assert f"workspace {missing} does not exist" in line
    assert not (tmp_path / "no").exists()


@pytest.mark.parametrize("command", ["run", "status", "memory", "context", "map", "trace", "init", "budget"])
def test_a_file_given_as_workspace_is_refused(command: str, tmp_path: Path) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("not a repository\n")
    done = slmcode_here(*COMMANDS[command], "-w", a_file)
    assert done.code == 2
    assert f"workspace {a_file} is a file, not a folder" in done.error_line()
    assert a_file.read_text() == "not a repository\n"


BAD_CONFIGS = {
    "non-UTF-8 byte": (b"model: caf\xe9-7b\n", "line 1: byte 0xe9 is not UTF-8"),
    "broken YAML": (b"model: [unclosed\n", "broken YAML"),
    "unknown key": (b"modle: qwen2.5-coder:7b\n", "did you mean 'model'"),
    "wrong type": (b"max_parallel: many\n", "key 'max_parallel'"),
    "a list at the top": (b"- model\n- qwen\n", "expected a mapping"),
    "a negative limit": (b"context_limit: -5\n", "key 'context_limit'"),
}


@pytest.mark.parametrize("fault", sorted(BAD_CONFIGS))
@pytest.mark.parametrize("command", ["run", "config show"])
def test_a_broken_project_config_is_one_line_naming_the_file(fault: str, command: str, repo: Path) -> None:
    content, says = BAD_CONFIGS[fault]
    config = repo / ".slmcode" / "config.yaml"
    config.parent.mkdir(exist_ok=True)
    config.write_bytes(content)
    before = tree_digest(repo)
    done = slmcode_here(*COMMANDS[command], "-w", repo)
    assert done.code == 2
    line = done.error_line()
    assert str(config) in line and says in line
    assert tree_digest(repo) == before
    assert config.read_bytes() == content
    assert not (repo / ".slmcode" / "runs").exists()


@pytest.mark.parametrize(
    ("variable", "value", "says"),
    [
        ("SLMCODE_MAX_PARALLEL", "lots", "key 'max_parallel'"),
        ("SLMCODE_ROLES", "[unclosed", "SLMCODE_ROLES: expected YAML"),
        ("SLMCODE_PERMISSION", "yolo", "key 'permission'"),
    ],
)
def test_a_bad_environment_variable_is_one_line_naming_it(variable: str, value: str, says: str, repo: Path) -> None:
    done = slmcode_here(*COMMANDS["run"], "-w", repo, env=environment(**{variable: value}))
    assert done.code == 2
    assert says in done.error_line()
    assert not (repo / ".slmcode" / "runs").exists()


@pytest.mark.parametrize("task", ["", "   ", "\n\t\n"])
def test_an_empty_task_is_refused_before_anything_is_written(task: str, repo: Path) -> None:
    done = slmcode_here("run", task, "-w", repo, "--base-url", "http://127.0.0.1:9/v1")
    assert done.code == 2
    assert "the task is empty" in done.error_line()
    assert not (repo / ".slmcode" / "runs").exists()


def test_a_model_name_no_profile_knows_says_the_window_is_a_guess(repo: Path) -> None:
    done = slmcode_here("budget", "--model", "qwen-cdoer-typo", "-w", repo)
    assert done.code == 0
    assert "profile used: default" in done.out
    assert "is a guess" in done.err and "qwen-cdoer-typo" in done.err
    known = slmcode_here("budget", "--model", "qwen2.5-coder:7b", "-w", repo)
    assert "profile used: size bucket 7b" in known.out and "guess" not in known.err


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["resume"], "no unfinished run in"),
        (["resume", "run-nope"], "no run 'run-nope'"),
        (["trace", "run-nope"], "no run 'run-nope'"),
    ],
)
def test_resume_or_trace_without_a_run_says_so(args: list[str], says: str, repo: Path) -> None:
    done = slmcode_here(*args, "-w", repo)
    assert done.code == 2
    assert says in done.error_line()


@pytest.mark.parametrize("url", ["localhost:11434/v1", "notaurl", "ftp://127.0.0.1:9/v1"])
@pytest.mark.parametrize("command", ["run", "doctor"])
def test_a_base_url_that_is_not_an_http_url_is_refused_before_a_run_starts(url: str, command: str, repo: Path) -> None:
    # Before: the run started, was recorded interrupted, and said 'model server unreachable: Connection error'.
    args = [a if a != "http://127.0.0.1:9/v1" else url for a in COMMANDS[command]]
    done = slmcode_here(*args, "-w", repo)
    assert done.code == 2
    line = done.error_line()
    assert "key 'base_url': expected an http:// or https:// URL" in line and url in line
    assert not (repo / ".slmcode" / "runs").exists()


def test_a_role_base_url_that_is_not_an_http_url_names_the_file_and_key(repo: Path) -> None:
    (repo / ".slmcode").mkdir(exist_ok=True)
    (repo / ".slmcode" / "config.yaml").write_text("roles:\n  worker:\n    base_url: localhost:11434/v1\n")
    done = slmcode_here(*COMMANDS["run"], "-w", repo)
    assert done.code == 2
    assert "config.yaml: key 'roles.worker.base_url': expected an http" in done.error_line()


NOT_UTF8 = b"# Lessons\n- caf\xe9 is Latin-1\n"  # saved by an editor in Latin-1


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("MEMORY.md", ["memory"]),
        ("MEMORY.md", ["memory", "drop", "L1"]),
        ("MEMORY.md", ["context"]),
        ("CONTEXT.md", ["context", "--query", "divide"]),
        ("blocks/mine.yaml", ["blocks", "list"]),
        ("blocks/mine.yaml", ["compose", "Add divide"]),
        ("skills/learned/mine/SKILL.md", ["context"]),  # and by every run as it starts (read_memory)
    ],
)
def test_a_state_file_that_is_not_utf8_is_one_line_naming_file_line_and_byte(
    name: str, args: list[str], repo: Path
) -> None:
    # Before: 'internal error: UnicodeDecodeError: ...' with exit 3.
    target = repo / ".slmcode" / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(NOT_UTF8)
    done = slmcode_here(*args, "-w", repo)
    assert done.code == 2
    assert done.error_line() == f"error: {target}: line 2: byte 0xe9 is not UTF-8 (save the file as UTF-8)"
    assert target.read_bytes() == NOT_UTF8  # never rewritten


def test_a_session_file_that_is_not_utf8_is_skipped_by_the_listing(repo: Path) -> None:
    sessions = repo / ".slmcode" / "sessions"
    sessions.mkdir(parents=True)
    (sessions / "run-foreign.json").write_bytes(NOT_UTF8)
    done = slmcode_here("session", "list", "-w", repo)
    assert done.code == 0 and "No sessions yet" in done.out


@pytest.mark.parametrize("run_id", ["../../outside", "a/b", "..", "/tmp/abs", "x.lock", "-flag"])
def test_an_api_run_id_that_would_name_a_path_outside_slmcode_is_refused(run_id: str, repo: Path) -> None:
    # Before: run_id='../../outside' wrote <repo>/outside.json (and a scratch folder) into the user's tree.
    from slmcode import api
    from slmcode.errors import ConfigError

    before = tree_digest(repo)
    with pytest.raises(ConfigError, match="run_id: expected letters, digits"):
        api.run("Add divide", repo, run_id=run_id, base_url="http://127.0.0.1:9/v1")
    assert tree_digest(repo) == before
    assert not (repo / ".slmcode" / "runs").exists()


@pytest.mark.parametrize("args", [["status"], ["trace"], ["board"], ["resume"]])
def test_a_trace_file_that_is_not_a_database_is_named(args: list[str], repo: Path) -> None:
    # Before: status and trace said 'a database in .slmcode failed: file is not a database' (which of five?).
    trace = repo / ".slmcode" / "trace.sqlite"
    trace.parent.mkdir(exist_ok=True)
    trace.write_bytes(b"not sqlite" * 400)
    done = slmcode_here(*args, "-w", repo)
    assert done.code == 2
    assert done.error_line().startswith(f"error: {trace}: file is not a database (move it away")
    assert trace.read_bytes() == b"not sqlite" * 400


def test_a_task_with_bytes_that_are_not_utf8_runs_with_replacement_characters(repo: Path) -> None:
    # Before: 'internal error: UnicodeEncodeError: ... surrogates not allowed' (exit 3) from a Latin-1 terminal.
    task = b"Add divide caf\xe9".decode("utf-8", "surrogateescape")  # what Python makes of such an argv
    done = slmcode_here("run", task, "-w", repo, "--base-url", "http://127.0.0.1:9/v1")
    assert done.code == 2 and "unreachable" in done.error_line()  # it got as far as the model server
    assert "Add divide caf\ufffd" in done.out


def test_resume_takes_a_unique_prefix_and_names_a_missing_run_file(repo: Path) -> None:
    # Before: `resume PREFIX` said "no run 'PREFIX'" though `trace PREFIX` found it, and a run whose run file
    # was removed was "no run 'ID'" while `slmcode status` listed it.
    done = slmcode_here(*COMMANDS["run"], "-w", repo)  # recorded, failed before its first checkpoint
    assert done.code == 2
    (run_file,) = (repo / ".slmcode" / "runs").iterdir()
    run_id = run_file.stem
    by_prefix = slmcode_here("resume", run_id[:-2], "-w", repo)
    assert by_prefix.code == 2  # the prefix named the run: its full id and why it cannot be resumed
    assert by_prefix.error_line().startswith(f"error: run {run_id} cannot be resumed: failed before its first ")
    run_file.unlink()
    gone = slmcode_here("resume", run_id, "-w", repo)
    assert gone.code == 2
    assert gone.error_line() == (
        f"error: run {run_id} cannot be resumed: its run file {run_file} is gone; start it again with `slmcode run`"
    )


@pytest.mark.parametrize("command", ["run", "resume"])
def test_a_workspace_whose_path_is_not_utf8_is_one_line_before_anything_is_written(
    command: str, tmp_path: Path
) -> None:
    # Before: run said 'internal error: UnicodeEncodeError: ... surrogates not allowed' (exit 3) as it recorded
    # the run, after writing its run file.
    folder = os.fsdecode(os.fsencode(tmp_path) + b"/caf\xe9")  # a folder named on a Latin-1 system
    repo = make_repo(Path(folder))
    before = tree_digest(repo)
    done = slmcode_here(*COMMANDS[command], "-w", repo)
    assert done.code == 2
    assert done.error_line() == (
        f"error: workspace {tmp_path}/caf\\xe9/calculator: its path is not UTF-8, which a "
        "run needs to record it; rename the folder"
    )
    assert tree_digest(repo) == before and not (repo / ".slmcode" / "runs").exists()
