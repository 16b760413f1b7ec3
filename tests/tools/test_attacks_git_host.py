"""The harness's git where no sandbox can run (bwrap missing, no user namespaces): it runs on the host, so
nothing a repository's configuration names may run at all. Filters are emptied (an included config's too),
merge drivers made `false`, `status` does not look into submodules; gpg (for signed commits), fsmonitor,
hooks and bare-repository layouts stay off as in the wall. The same attacks through the wall run nothing on the
host either. Judged by effect: a marker file outside the workspace."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from slmcode.environment import LocalEnvironment
from slmcode.environment.bwrap import BWRAP_ENV, bwrap_binary
from slmcode.gitrun.git import Git
from slmcode.nodes.evidence import disk_evidence
from slmcode.tools.shellchanges import uncommitted
from tests.tools.test_attacks_git_wall import (
    CHANGED,
    IDENTITY,
    SOURCE,
    arm,
    bare_layout,
    git_repository,
    host,
    plain_git,
    ran,
    through_gitrun,
    through_review,
    touch,
)

__all__ = ["host"]  # the fixture, shared
IDENTITY_ENV = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@t",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@t",
}


@pytest.fixture
def no_sandbox(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """bwrap cannot run here: the harness's git falls back to the host."""
    monkeypatch.setenv(BWRAP_ENV, "/nonexistent/bwrap")
    bwrap_binary.cache_clear()
    yield
    monkeypatch.delenv(BWRAP_ENV)
    bwrap_binary.cache_clear()


@pytest.fixture(params=["wall", "host"])
def where(request: pytest.FixtureRequest) -> str:
    if request.param == "host":
        request.getfixturevalue("no_sandbox")
    return request.param


@pytest.mark.usefixtures("no_sandbox")
@pytest.mark.parametrize("kind", ["clean", "process", "smudge"])
def test_without_a_sandbox_no_filter_runs_on_the_host(tmp_path: Path, host: Path, kind: str) -> None:
    ws = git_repository(tmp_path)
    arm(ws, kind, host / kind)
    (ws / "billing.py").write_text(CHANGED)
    assert uncommitted(ws) is not None
    disk_evidence(ws, ["billing.py"], 4000)
    (ws / "billing.py").write_text(SOURCE)
    through_gitrun(ws)
    assert ran(host) == []


@pytest.mark.usefixtures("no_sandbox")
def test_without_a_sandbox_a_filter_defined_by_an_included_config_is_emptied_too(tmp_path: Path, host: Path) -> None:
    ws = git_repository(tmp_path)
    (ws / ".gitattributes").write_text("*.py filter=y.z\n")
    plain_git(ws, "commit", "-qam", "attributes")
    (ws / ".git" / "extra.cfg").write_text(f'[filter "y.z"]\n\tclean = "{touch(host / "included")}; cat"\n')
    with (ws / ".git" / "config").open("a") as handle:
        handle.write("[include]\n\tpath = extra.cfg\n")
    through_gitrun(ws)
    assert ran(host) == []
    (ws / "billing.py").write_text("x = 3\n")
    plain_git(ws, "add", "billing.py")  # the payload was live all along: plain git runs it
    assert ran(host) == ["included"]


@pytest.mark.usefixtures("no_sandbox")
def test_without_a_sandbox_fsmonitor_hooks_and_bare_layouts_stay_off(tmp_path: Path, host: Path) -> None:
    ws = git_repository(tmp_path)
    arm(ws, "driver", host / "driver")  # first: it commits its attributes with the test's plain git
    arm(ws, "fsmonitor", host / "fsmonitor")
    arm(ws, "hooks", host / "hooks")
    through_gitrun(ws)
    through_review(ws)
    docs = tmp_path / "plain" / "docs_bare"
    bare_layout(docs, host / "bare")
    assert uncommitted(docs) is None
    assert not LocalEnvironment(docs).git("status").ok
    assert ran(host) == []


def diverged(tmp_path: Path, marker: Path) -> Path:
    """Two branches changing the same line, and a merge driver for .py files naming a program."""
    ws = git_repository(tmp_path)
    (ws / ".gitattributes").write_text("*.py merge=m\n")
    plain_git(ws, "commit", "-qam", "attributes")
    plain_git(ws, "checkout", "-qb", "theirs")
    (ws / "billing.py").write_text(CHANGED)
    plain_git(ws, "commit", "-qam", "theirs")
    plain_git(ws, "checkout", "-q", "-")
    (ws / "billing.py").write_text("def charge_invoice(n):\n    return n * 2\n")
    plain_git(ws, "commit", "-qam", "ours")
    with (ws / ".git" / "config").open("a") as handle:
        handle.write(f'[merge "m"]\n\tdriver = "{touch(marker)}; true"\n')
    return ws


def test_a_merge_driver_runs_nothing_on_the_host(tmp_path: Path, host: Path, where: str) -> None:
    ws = diverged(tmp_path / "harness", host / "merge")
    LocalEnvironment(ws).git("merge", "-q", "--no-ff", "-m", "merge", "theirs", env=IDENTITY_ENV)
    assert ran(host) == []
    twin = diverged(tmp_path / "plain", host / "merge")
    subprocess.run(["git", *IDENTITY, "merge", "-q", "--no-ff", "-m", "m", "theirs"], cwd=twin, capture_output=True)
    assert ran(host) == ["merge"]  # the payload is live: plain git runs it


def signed(tmp_path: Path, marker: Path) -> Path:
    """HEAD a commit carrying a (fake) signature, and a config that checks signatures with its own program."""
    ws = git_repository(tmp_path)
    tree = subprocess.run(["git", "write-tree"], cwd=ws, capture_output=True, text=True, check=True).stdout.strip()
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ws, capture_output=True, text=True, check=True).stdout
    body = (
        f"tree {tree}\nparent {head.strip()}\nauthor t <t@t> 0 +0000\ncommitter t <t@t> 0 +0000\n"
        "gpgsig -----BEGIN PGP SIGNATURE-----\n \n -----END PGP SIGNATURE-----\n\nsigned\n"
    )
    sha = subprocess.run(
        ["git", "hash-object", "-t", "commit", "-w", "--stdin"],
        cwd=ws,
        input=body,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    plain_git(ws, "update-ref", "HEAD", sha)
    program = ws / ".git" / "verify-signature"  # gpg.program is run as a program, not through a shell
    program.write_text(f"#!/bin/sh\n{touch(marker)}\n")
    program.chmod(0o755)
    with (ws / ".git" / "config").open("a") as handle:
        handle.write(
            f"[log]\n\tshowSignature = true\n[gpg]\n\tprogram = {program}\n[merge]\n\tverifySignatures = true\n"
        )
    return ws


def test_a_signature_check_runs_no_gpg_program(tmp_path: Path, host: Path, where: str) -> None:
    ws = signed(tmp_path / "harness", host / "gpg")
    assert Git(ws).out("log", "-1", "--format=%s") == "signed"
    assert ran(host) == []
    twin = signed(tmp_path / "plain", host / "gpg")
    subprocess.run(["git", "log", "-1"], cwd=twin, capture_output=True)
    assert ran(host) == ["gpg"]  # the payload is live


def with_submodule(tmp_path: Path, marker: Path) -> Path:
    """A repository with a submodule whose own config names a clean filter, and a change in the submodule."""
    lib = git_repository(tmp_path / "lib-origin")
    (lib / ".gitattributes").write_text("*.py filter=sub\n")
    plain_git(lib, "commit", "-qam", "attributes")
    ws = git_repository(tmp_path)
    plain_git(ws, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib), "lib")
    plain_git(ws, "commit", "-qm", "submodule")
    with (ws / ".git" / "modules" / "lib" / "config").open("a") as handle:
        handle.write(f'[filter "sub"]\n\tclean = "{touch(marker)}; cat"\n')
    (ws / "lib" / "billing.py").write_text(CHANGED)
    return ws


def test_a_submodules_own_filter_runs_nothing_on_the_host(tmp_path: Path, host: Path, where: str) -> None:
    ws = with_submodule(tmp_path / "harness", host / "submodule")
    uncommitted(ws)
    Git(ws).dirty()
    disk_evidence(ws, ["lib/billing.py"], 4000)
    assert ran(host) == []
    twin = with_submodule(tmp_path / "plain", host / "submodule")
    subprocess.run(["git", "status"], cwd=twin, capture_output=True)
    assert ran(host) == ["submodule"]  # the payload is live
