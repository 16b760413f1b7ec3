"""A real git repository (tests/graph/scenario.py's calculator) and the scripted team run on it."""

from __future__ import annotations

import subprocess
from pathlib import Path

from slmcode import api
from tests import inprocess
from tests.fake_llm import FakeLLM
from tests.graph.scenario import script_buggy_worker_then_fix, script_planning


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout.strip()


def branch_of(repo: Path) -> str:
    return git(repo, "symbolic-ref", "--short", "HEAD")


def scripted_run(fake: FakeLLM, repo: Path, **settings: object) -> api.RunResult:
    """The calculator scenario: a code task (wrong, then corrected) and the tester task."""
    script_planning(fake)
    script_buggy_worker_then_fix(fake)
    return api.run(
        "Add a divide operation", repo, base_url=fake.url, model="qwen2.5-coder:7b", request_retries=0, **settings
    )


def slmcode(*args: str) -> subprocess.CompletedProcess[str]:
    """The real command line, through main() in this process: its exit code and the one line a user sees."""
    return inprocess.slmcode(*args)
