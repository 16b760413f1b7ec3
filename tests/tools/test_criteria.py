"""Criteria verdicts: a command that passes, one that fails, one refused, one missing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from slmcode.config import Settings
from slmcode.state import Criterion
from slmcode.tools.criteria import run_criteria
from tests.tools.conftest import ALLOWED, PYTHON


def test_verdicts_for_passing_failing_refused_and_missing(workspace: Path) -> None:
    criteria = [
        Criterion(
            text="calc adds",
            verify=f'{PYTHON} -c \'import sys; sys.path.insert(0, "src"); '
            f'import calc; assert calc.add(2, 3) == 5; print("ok")\'',
        ),
        Criterion(text="calc multiplies", verify=f"{PYTHON} -c 'print(\"boom\"); raise SystemExit(3)'"),
        Criterion(text="clean tree", verify="rm -rf build"),
        Criterion(text="reads well", priority="should"),
        Criterion(text="a tool is installed", verify="nosuchtool --check"),
    ]
    settings = Settings(shell_timeout_seconds=20)
    allowed = (*ALLOWED, "nosuchtool")
    passed, failed, refused, missing, absent = run_criteria(
        criteria, workspace=workspace, settings=settings, allowed_commands=allowed
    )
    assert (passed.status, passed.exit_code) == ("PASSED", 0) and "ok" in passed.evidence
    assert (failed.status, failed.exit_code) == ("FAILED", 3) and "boom" in failed.evidence
    assert refused.status == "UNVERIFIED" and "rm is not on the whitelist" in refused.evidence
    assert refused.exit_code is None
    assert missing.status == "UNVERIFIED" and missing.evidence == "no verify command: nothing ran"
    assert absent.status == "UNVERIFIED" and absent.evidence == "Error: nosuchtool is not installed here."
    assert (workspace / "src").is_dir()


def test_a_criterion_cannot_widen_the_whitelist(workspace: Path) -> None:
    (verdict,) = run_criteria(
        [Criterion(text="x", verify=f"{PYTHON} -c 'print(1)'")], workspace=workspace, settings=Settings()
    )
    assert verdict.status == "UNVERIFIED" and "is not on the whitelist" in verdict.evidence


def test_shell_permission_applies_to_criteria(workspace: Path) -> None:
    crit = [Criterion(text="x", verify="ls")]
    (denied,) = run_criteria(crit, workspace=workspace, settings=Settings(shell_permission="deny"))
    assert denied.status == "UNVERIFIED" and "shell_permission: deny" in denied.evidence
    (unasked,) = run_criteria(crit, workspace=workspace, settings=Settings(shell_permission="ask"))
    assert unasked.status == "UNVERIFIED" and "needs approval" in unasked.evidence
    (approved,) = run_criteria(
        crit, workspace=workspace, settings=Settings(shell_permission="ask"), confirm=lambda command: True
    )
    assert approved.status == "PASSED"


def test_a_timeout_fails_the_criterion(workspace: Path) -> None:
    (verdict,) = run_criteria(
        [Criterion(text="x", verify=f"{PYTHON} -c 'import time; time.sleep(30)'")],
        workspace=workspace,
        settings=Settings(shell_timeout_seconds=0.5),
        allowed_commands=ALLOWED,
    )
    assert verdict.status == "FAILED" and "timed out" in verdict.evidence


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed here")
def test_a_javascript_pack_runs_node_test_as_its_criteria_write_it(workspace: Path) -> None:
    """The JavaScript packs allow `npm test`; a criterion says `node --test`, as package.json's script does.
    Refused, every JavaScript criterion ended UNVERIFIED (found by the simulated eval's best-of-N rows)."""
    (workspace / "t.test.js").write_text("const test = require('node:test');\ntest('ok', () => {});\n")
    criteria = [
        Criterion(text="tests pass", verify="node --test t.test.js"),
        Criterion(text="any node", verify="node -e 1"),
    ]
    test_run, other = run_criteria(
        criteria, workspace=workspace, settings=Settings(shell_timeout_seconds=30), allowed_commands=("npm test",)
    )
    assert test_run.status == "PASSED", test_run.evidence
    assert other.status == "UNVERIFIED" and "is not on the whitelist" in other.evidence
