"""The harness's own git runs inside the wall. A repository whose configuration names a program (a clean,
smudge or process filter, an fsmonitor, an external diff or diff driver, a textconv, a pager, hooks) gets that
program run by git; every git call slmcode makes itself (the changed-files snapshot around a model's harmless
`ls`, the reviewer's diff, a git-native run's commit and checkout, the repo map's file list) runs in the
bubblewrap jail, so the program can act only there. Judged by effect: a marker file outside the workspace.
A folder laid out as a bare repository is never taken for one (safe.bareRepository=explicit). Where no sandbox
can run, git runs on the host with every filter emptied."""

from __future__ import annotations

import os
import stat
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from langchain_core.messages import ToolMessage

from slmcode.config import Settings
from slmcode.environment import LocalEnvironment
from slmcode.environment.ossandbox import scratch_dir
from slmcode.errors import GitRunError
from slmcode.gitrun.git import Git
from slmcode.gitrun.session import GitRun
from slmcode.nodes.evidence import disk_evidence
from slmcode.repomap.discover import discover
from slmcode.state import Task
from slmcode.tools.context import ToolContext
from slmcode.tools.shellchanges import uncommitted
from slmcode.tools.toolset import make_tools, run_tool_call
from tests.fake_llm import FakeLLM
from tests.gitrun.helpers import scripted_run
from tests.tools.conftest import ALLOWED, PYTHON

IDENTITY = ["-c", "user.name=t", "-c", "user.email=t@t"]
# The same size: git cannot tell the change by size, so `status` hashes the file again (and runs its filter).
SOURCE = "def charge_invoice(n):\n    return n + 0\n"
CHANGED = "def charge_invoice(n):\n    return n + 1\n"


def touch(marker: Path) -> str:
    return f"touch {marker}"


# Each payload: (.git/config text, .gitattributes text) naming a program that would leave the marker `{t}`
# touches. Values are quoted: outside quotes git's config reads `;` as the start of a comment.
PAYLOADS: dict[str, tuple[str, str]] = {
    "clean": ('[filter "x"]\n\tclean = "{t}; cat"\n', "*.py filter=x\n"),
    "process": ('[filter "x"]\n\tprocess = "{t}"\n', "*.py filter=x\n"),
    "smudge": ('[filter "x"]\n\tsmudge = "{t}; cat"\n\tclean = cat\n', "*.py filter=x\n"),
    "fsmonitor": ('[core]\n\tfsmonitor = "{t}; false"\n', ""),
    "external": ('[diff]\n\texternal = "{t}"\n', ""),
    "driver": ('[diff "py"]\n\tcommand = "{t}"\n', "*.py diff=py\n"),
    "textconv": ('[diff "py"]\n\ttextconv = "{t}; cat"\n', "*.py diff=py\n"),
    "pager": ('[core]\n\tpager = "{t}; cat"\n[pager]\n\tstatus = "{t}"\n\tdiff = "{t}"\n\tlog = "{t}"\n', ""),
    "hooks": ("", ""),  # executable scripts in .git/hooks, written below
}
HOOKS = ("pre-commit", "post-commit", "post-checkout", "reference-transaction", "post-index-change")


def plain_git(ws: Path, *args: str) -> None:
    subprocess.run(["git", *IDENTITY, *args], cwd=ws, check=True, capture_output=True)


def git_repository(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir(parents=True)
    (ws / "billing.py").write_text(SOURCE)
    (ws / ".gitattributes").write_text("")
    plain_git(ws, "init", "-q")
    plain_git(ws, "add", "-A")
    plain_git(ws, "commit", "-qm", "start")
    return ws


def arm(ws: Path, kind: str, marker: Path) -> None:
    """Write the payload into an existing repository (after its first commit, as a tarball would bring it)."""
    config, attributes = PAYLOADS[kind]
    if attributes:  # committed before the config names the program: the tree is clean, as a clone's is
        (ws / ".gitattributes").write_text(attributes)
        plain_git(ws, "commit", "-qam", "attributes")
    with (ws / ".git" / "config").open("a") as handle:
        handle.write(config.replace("{t}", touch(marker)))
    if kind == "hooks":
        for name in HOOKS:
            hook = ws / ".git" / "hooks" / name
            hook.write_text(f"#!/bin/sh\n{touch(marker)}\n")
            hook.chmod(hook.stat().st_mode | stat.S_IXUSR)


@pytest.fixture
def host(tmp_path: Path) -> Path:
    """A folder outside the workspace: any file in it is a program that ran on the host."""
    folder = tmp_path / "host"
    folder.mkdir()
    return folder


def ran(host: Path) -> list[str]:
    return sorted(p.name for p in host.iterdir())


def ws_shell(ws: Path, command: str, **settings: object) -> ToolMessage:
    ctx = ToolContext(workspace=ws, settings=Settings(shell_timeout_seconds=30, **settings), allowed_commands=ALLOWED)
    return run_tool_call(make_tools(ctx), {"name": "ws_shell", "args": {"command": command}, "id": "c1"})


def through_ws_shell(ws: Path) -> None:
    (ws / "billing.py").write_text(CHANGED)
    result = ws_shell(ws, "ls")
    assert "billing.py" in str(result.content)


def through_review(ws: Path) -> None:
    (ws / "billing.py").write_text(CHANGED)
    evidence, missing = disk_evidence(ws, ["billing.py"], 4000)
    assert missing == [] and "return n + 1" in evidence  # the diff (the file itself where a filter broke git)


def through_gitrun(ws: Path) -> None:
    """A branch run: checkout of the run's branch, a task's commit, the checkout back to the user's branch."""
    run = GitRun.start(ws, "r1", "branch", stash=False)
    (ws / "billing.py").write_text(CHANGED)
    notes = run.finish([Task(id="t1", title="charge one more", status="done", files_changed=["billing.py"])])
    assert any("committed t1" in note for note in notes), notes
    assert Git(ws).out("show", "slmcode/r1:billing.py") + "\n" == CHANGED
    assert (ws / "billing.py").read_text() == SOURCE  # the user's branch is checked out again


def through_repo_map(ws: Path) -> None:
    (ws / "billing.py").write_text(CHANGED)
    assert [c.path for c in discover(ws, 1_000_000).files] == ["billing.py"]


CALLERS: dict[str, Callable[[Path], None]] = {
    "ws_shell": through_ws_shell,
    "review": through_review,
    "gitrun": through_gitrun,
    "repo_map": through_repo_map,
}


# The one git call (as the harness's callers make them) that runs each payload; a pager needs a terminal.
TRIGGERS = {
    "clean": ["status"],
    "process": ["status"],
    "smudge": ["checkout", "-q", "HEAD", "--", "billing.py"],
    "fsmonitor": ["ls-files"],
    "external": ["diff"],
    "driver": ["diff"],
    "textconv": ["diff", "--no-ext-diff"],
    "hooks": ["commit", "-qam", "x"],
}


@pytest.mark.parametrize("kind", sorted(TRIGGERS))
def test_plain_git_runs_every_payload(tmp_path: Path, host: Path, kind: str) -> None:
    """The payloads are real: git without slmcode's wall runs each one on the host."""
    ws = git_repository(tmp_path)
    arm(ws, kind, host / kind)
    (ws / "billing.py").write_text(CHANGED)
    subprocess.run(["git", *IDENTITY, *TRIGGERS[kind]], cwd=ws, capture_output=True)
    assert ran(host) == [kind]


@pytest.mark.parametrize("caller", sorted(CALLERS))
@pytest.mark.parametrize("kind", sorted(PAYLOADS))
def test_no_payload_runs_on_the_host_through_any_caller(tmp_path: Path, host: Path, kind: str, caller: str) -> None:
    ws = git_repository(tmp_path)
    arm(ws, kind, host / kind)
    if kind == "process" and caller == "gitrun":
        # A filter process that dies makes git itself fail: the run stops with one line, nothing ran outside.
        with pytest.raises(GitRunError, match="git status failed"):
            CALLERS[caller](ws)
    else:
        CALLERS[caller](ws)
    assert ran(host) == []


def test_a_filter_runs_only_inside_the_wall(tmp_path: Path, host: Path) -> None:
    """The filter did run (git-lfs keeps working) — in the jail, where HOME is the scratch folder and the host's
    other folders are not there."""
    ws = git_repository(tmp_path)
    (ws / ".gitattributes").write_text("*.py filter=x\n")
    plain_git(ws, "commit", "-qam", "attributes")
    with (ws / ".git" / "config").open("a") as handle:
        handle.write(f'[filter "x"]\n\tclean = "touch $HOME/in-the-wall; {touch(host / "clean")}; cat"\n')
    through_gitrun(ws)
    assert (scratch_dir(ws) / "home" / "in-the-wall").exists()
    assert ran(host) == []


@pytest.mark.parametrize("mode", ["auto", "review"])
def test_a_git_folder_a_command_makes_in_a_plain_workspace_runs_nothing_on_the_host(
    tmp_path: Path, host: Path, mode: str
) -> None:
    """A non-git workspace: a command makes WS/.git with a filter, an fsmonitor and .gitattributes; the next
    ws_shell's changed-files snapshot (and the reviewer's diff, the repo map) run nothing on the host."""
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "billing.py").write_text(SOURCE)
    config = (
        f'[filter "x"]\n\tclean = "{touch(host / "clean")}; cat"\n'
        f'[core]\n\tfsmonitor = "{touch(host / "fsmonitor")}; false"\n'
    )
    # Index billing.py first, then arm the config and change the file: the next `git status` hashes it again.
    (ws / "maker.py").write_text(
        "import pathlib, subprocess\nsubprocess.run(['git', 'init', '-q'])\n"
        "pathlib.Path('.gitattributes').write_text('* filter=x\\n')\n"
        "subprocess.run(['git', 'add', 'billing.py'])\n"
        f"with open('.git/config', 'a') as c:\n    c.write({config!r})\n"
        "open('billing.py', 'a').write('# more\\n')\n"
    )
    ws_shell(ws, f"{PYTHON} -c \"exec(open('maker.py').read())\"", permission="auto")
    if not (ws / ".git").exists():  # the sandbox removed it after the command: make it as the command did
        subprocess.run([PYTHON, "maker.py"], cwd=ws, check=True, capture_output=True)
    assert ran(host) == []
    ws_shell(ws, "ls", permission=mode)
    disk_evidence(ws, ["billing.py"], 4000)
    discover(ws, 1_000_000)
    assert ran(host) == []


def bare_layout(folder: Path, marker: Path) -> None:
    """A git directory under another name, pointing its work tree at itself, with an fsmonitor."""
    (folder / "objects").mkdir(parents=True)
    (folder / "refs" / "heads").mkdir(parents=True)
    (folder / "HEAD").write_text("ref: refs/heads/main\n")
    (folder / "config").write_text(
        "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n"
        f'\tfsmonitor = "{touch(marker)}; false"\n'
    )
    (folder / "notes.py").write_text("x = 1\n")


def test_plain_git_takes_an_embedded_bare_layout_for_a_repository(tmp_path: Path, host: Path) -> None:
    docs = tmp_path / "ws" / "docs_bare"
    bare_layout(docs, host / "bare")
    subprocess.run(["git", "-c", "safe.bareRepository=all", "status"], cwd=docs, capture_output=True)
    assert ran(host) == ["bare"]


def test_the_harness_never_takes_an_embedded_bare_layout_for_a_repository(tmp_path: Path, host: Path) -> None:
    ws = tmp_path / "ws"
    docs = ws / "docs_bare"
    bare_layout(docs, host / "bare")
    assert uncommitted(docs) is None
    assert not LocalEnvironment(docs).git("status").ok
    assert not Git(docs).is_repo()
    disk_evidence(docs, ["notes.py"], 4000)
    assert [c.path for c in discover(docs, 1_000_000).files] == ["notes.py"]
    ws_shell(ws, "ls docs_bare")
    assert ran(host) == []


def test_a_workspace_that_is_itself_a_bare_layout_runs_nothing(tmp_path: Path, host: Path) -> None:
    ws = tmp_path / "ws"
    bare_layout(ws, host / "bare")
    assert uncommitted(ws) is None
    assert not LocalEnvironment(ws).git("status").ok
    ws_shell(ws, "ls")
    assert ran(host) == []


def test_the_snapshot_still_sees_what_a_command_changed_inside_the_wall(tmp_path: Path, host: Path) -> None:
    """The wall does not blind the changed-files check: a command's edit is still reported."""
    ws = git_repository(tmp_path)
    arm(ws, "clean", host / "clean")
    code = "import pathlib; pathlib.Path('billing.py').write_text('x = 2\\n')"
    result = ws_shell(ws, f'{PYTHON} -c "{code}"')
    assert "billing.py" in str(result.content).splitlines()[-1]
    assert ran(host) == []


def test_a_workspace_below_the_repositorys_top_is_served_inside_the_wall(tmp_path: Path, host: Path) -> None:
    ws = git_repository(tmp_path)
    (ws / "pkg").mkdir()
    (ws / "pkg" / "mod.py").write_text(SOURCE)
    plain_git(ws, "add", "-A")
    plain_git(ws, "commit", "-qm", "pkg")
    arm(ws, "clean", host / "clean")
    (ws / "pkg" / "mod.py").write_text(CHANGED)
    (ws / "billing.py").write_text(CHANGED)
    assert set(uncommitted(ws / "pkg") or {}) == {"mod.py"}
    assert "+    return n + 1" in disk_evidence(ws / "pkg", ["mod.py"], 4000)[0]
    assert ran(host) == []
    assert os.path.exists(ws / ".git")


@pytest.mark.slow
def test_a_whole_git_run_in_a_hostile_repository_runs_nothing_on_the_host(
    fake_llm: FakeLLM, repo: Path, tmp_path: Path
) -> None:
    """The calculator run in branch mode (snapshots around each command, the reviewer's diff, the repo map, a
    commit per task, the checkouts) over a repository whose config names a filter, an fsmonitor and hooks."""
    host = tmp_path / "host-markers"
    host.mkdir()
    (repo / ".gitattributes").write_text("*.py filter=x diff=py\n")
    plain_git(repo, "add", ".gitattributes")
    plain_git(repo, "commit", "-qm", "attributes")
    with (repo / ".git" / "config").open("a") as handle:
        for kind in ("clean", "fsmonitor", "textconv"):
            handle.write(PAYLOADS[kind][0].replace("{t}", touch(host / kind)))
    arm(repo, "hooks", host / "hooks")
    result = scripted_run(fake_llm, repo, git_mode="branch")
    assert result.outcome == "done", result.outcome
    assert "return a / b" in Git(repo).out("show", f"slmcode/{result.run_id}:calc/ops.py")
    assert ran(host) == []


def setuid_filter_repository(tmp_path: Path) -> Path:
    """A clean filter that marks a program in the workspace set-uid (owned by root outside when run as root)."""
    ws = git_repository(tmp_path)
    (ws / "tool.sh").write_text("#!/bin/sh\necho hi\n")
    (ws / "tool.sh").chmod(0o755)
    (ws / ".gitattributes").write_text("*.py filter=x\n")
    plain_git(ws, "add", "-A")
    plain_git(ws, "commit", "-qm", "tool")
    with (ws / ".git" / "config").open("a") as handle:
        handle.write(f'[filter "x"]\n\tclean = "chmod 4755 {ws / "tool.sh"}; cat"\n')
    return ws


def test_a_filter_leaves_no_set_uid_program_behind(tmp_path: Path) -> None:
    twin = setuid_filter_repository(tmp_path / "plain")
    (twin / "billing.py").write_text(CHANGED)
    plain_git(twin, "add", "billing.py")
    assert (twin / "tool.sh").stat().st_mode & stat.S_ISUID  # the payload is live
    ws = setuid_filter_repository(tmp_path / "harness")
    through_gitrun(ws)
    assert not (ws / "tool.sh").stat().st_mode & (stat.S_ISUID | stat.S_ISGID)
