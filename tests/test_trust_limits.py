"""Limits an untrusted workspace may not raise (docs/architecture.md#trust): a command's deadline, the output held
in memory, the tasks run at once, and git's mode. A cloned repository's `.slmcode/config.yaml` that raises one
of them is ignored for it, with the one untrusted line naming it; a value under the user's own still applies.
Judged by effect: the command is still killed at the user's deadline, its output still cut at the user's cap,
the user's branch gets no commit, the reviewer writes nothing."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from slmcode import trust
from slmcode.config import UNTRUSTED, load_settings
from slmcode.nodes.prompts import SYSTEM
from slmcode.tools.shell import ShellResult, run_command
from tests.fake_llm import FakeLLM, Reply, tool_call
from tests.gitrun.helpers import git, scripted_run
from tests.sandboxcheck import needs_sandbox
from tests.test_trust import user_config, workspace_config, ws  # noqa: F401  (ws: the fixture)

PYTHON = sys.executable
RUN = f"{PYTHON} payload.py"


def run_payload(ws: Path, code: str) -> ShellResult:
    (ws / "payload.py").write_text(code)
    result = run_command(ws, RUN, load_settings(ws).settings, allowed_commands=[RUN])
    assert isinstance(result, ShellResult), result
    return result


@needs_sandbox
def test_a_repository_cannot_raise_the_shell_deadline(ws: Path, isolated_home: Path) -> None:
    # Before: the workspace's 1,000,000 s replaced the user's deadline and the command ran to its end.
    user_config(isolated_home, shell_timeout_seconds=1)
    workspace_config(ws, shell_timeout_seconds=1_000_000)
    result = run_payload(ws, "import time\ntime.sleep(20)\nprint('ran to its end')\n")
    assert result.timed_out and "ran to its end" not in result.output
    loaded = load_settings(ws)
    assert (loaded.trust, loaded.ignored) == (UNTRUSTED, ["shell_timeout_seconds"])
    assert "ignored its .slmcode/ shell_timeout_seconds" in trust.untrusted_line(ws, loaded.ignored)


@needs_sandbox
def test_a_repository_cannot_raise_the_output_held_in_memory(ws: Path, isolated_home: Path) -> None:
    # Before: the workspace's 100 GB cap replaced the user's 4,000 bytes and all 200,000 bytes were kept.
    user_config(isolated_home, tool_output_capture_bytes=4000)
    workspace_config(ws, tool_output_capture_bytes=100_000_000_000)
    result = run_payload(ws, "print('x' * 200_000)\n")
    assert result.output.count("x") <= 4000
    assert load_settings(ws).ignored == ["tool_output_capture_bytes"]


@needs_sandbox
def test_a_lower_deadline_from_the_repository_still_applies(ws: Path, isolated_home: Path) -> None:
    user_config(isolated_home, shell_timeout_seconds=600)
    workspace_config(ws, shell_timeout_seconds=1)
    assert load_settings(ws).ignored == []
    result = run_payload(ws, "import time\ntime.sleep(20)\nprint('ran to its end')\n")
    assert result.timed_out and "ran to its end" not in result.output


def test_a_repository_cannot_commit_on_the_users_branch(fake_llm: FakeLLM, repo: Path) -> None:
    # Before: `git_mode: in-place` in the repository's own config made every accepted task a commit on the
    # user's checked-out branch.
    workspace_config(repo, git_mode="in-place")
    git(repo, "add", ".slmcode/config.yaml")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "their config")
    head = git(repo, "rev-parse", "HEAD")
    scripted_run(fake_llm, repo)
    assert "def divide" in (repo / "calc" / "ops.py").read_text()  # the run did its work, uncommitted
    assert git(repo, "rev-parse", "HEAD") == head
    assert "git_mode" in load_settings(repo).ignored


def test_an_agent_block_gives_the_reviewer_no_write_or_shell_tool(fake_llm: FakeLLM, repo: Path) -> None:
    # An agent block's tools only limit what its phase already has: the reviewer has none, so naming ws_write
    # and ws_shell for it offers nothing, and the write its model asks for anyway is never made.
    (repo / ".slmcode" / "blocks").mkdir(parents=True, exist_ok=True)
    (repo / ".slmcode" / "blocks" / "reviewer.yaml").write_text(
        "api_version: blocks/v1\nkind: agent\nid: reviewer\nrole: reviewer\ntools: [ws_read, ws_write, ws_shell]\n"
    )
    write = tool_call("ws_write", path="reviewed.txt", content="the reviewer wrote this")
    fake_llm.on(SYSTEM["reviewer"], Reply(tool_calls=[write]), times=1)
    scripted_run(fake_llm, repo)
    reviews = [r for r in fake_llm.requests if r["messages"][0]["content"].startswith(SYSTEM["reviewer"])]
    assert reviews and not any(r.get("tools") for r in reviews)
    assert not (repo / "reviewed.txt").exists()
    assert "def divide" in (repo / "calc" / "ops.py").read_text()


def test_a_repository_cannot_run_more_tasks_at_once_than_the_user(ws: Path, isolated_home: Path) -> None:
    user_config(isolated_home, max_parallel=2)
    workspace_config(ws, max_parallel=500, git_stash=True)
    loaded = load_settings(ws)
    assert loaded.settings.max_parallel == 2 and loaded.settings.git_stash is False
    assert loaded.ignored == ["git_stash", "max_parallel"]
    workspace_config(ws, max_parallel=1)
    assert load_settings(ws).settings.max_parallel == 1  # fewer is the repository's to choose


@pytest.mark.parametrize(
    ("key", "workspace", "own", "applies"),
    [
        ("shell_timeout_seconds", 30.0, 120.0, True),
        ("shell_timeout_seconds", 1e6, 120.0, False),
        ("tool_output_capture_bytes", 1e11, 1_000_000, False),
        ("max_read_bytes", 10**12, 1_000_000, False),
        ("max_read_bytes", 4096, 1_000_000, True),
        ("max_parallel", 500, 2, False),
        ("git_mode", "in-place", "off", False),
        ("git_mode", "in-place", "branch", False),
        ("git_mode", "off", "branch", False),  # the user wants runs kept off their branch until they accept
        ("git_mode", "branch", "off", True),
        ("git_stash", True, False, False),
    ],
)
def test_which_limits_a_workspace_may_set(key: str, workspace: object, own: object, applies: bool) -> None:
    assert trust.is_widening_key(key)
    assert trust.narrows(key, workspace, own) is applies
