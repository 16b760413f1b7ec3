"""Grading a SWE-bench instance as its harness does: the files the test patch touches are put back to the base
commit, the test patch is applied, then FAIL_TO_PASS and PASS_TO_PASS run (`python -m pytest -rA` with the
test ids) in the sandbox. Resolved: every FAIL_TO_PASS test and every PASS_TO_PASS test passes."""

from __future__ import annotations

import os
import re
import shlex
import stat
from dataclasses import dataclass, field
from pathlib import Path

from slmcode.environment.containment import Refusal, resolve_path
from slmcode.eval.suites.sandboxed import GRADE_TIMEOUT_SECONDS, run_tests
from slmcode.eval.suites.swebench import Instance, git

PYTEST = "python -m pytest"
# pytest -rA's summary: one line per test, its status first; a failure's message follows " - ".
_SUMMARY = re.compile(r"^(PASSED|FAILED|ERROR|XFAIL|XPASS|SKIPPED) (.+)$")
PASSING = ("PASSED", "XFAIL")  # as SWE-bench counts them
_PATCHED = re.compile(r"^diff --git a/(\S+) b/(\S+)$", re.MULTILINE)


@dataclass
class Verdict:
    resolved: bool
    fail_to_pass: dict[str, bool] = field(default_factory=dict)
    pass_to_pass: dict[str, bool] = field(default_factory=dict)
    output: str = ""

    def counts(self) -> dict[str, dict[str, int]]:
        return {
            name: {"passed": sum(tests.values()), "total": len(tests)}
            for name, tests in (("FAIL_TO_PASS", self.fail_to_pass), ("PASS_TO_PASS", self.pass_to_pass))
        }


def statuses(output: str) -> dict[str, str]:
    """Each test id's status from pytest -rA's short summary."""
    found: dict[str, str] = {}
    for line in output.splitlines():
        match = _SUMMARY.match(line.strip())
        if match:
            status, rest = match.groups()
            test_id = rest.split(" - ", 1)[0].strip() if status in ("FAILED", "ERROR") else rest.strip()
            found[test_id] = status
    return found


def apply_test_patch(instance: Instance, workspace: Path) -> str:
    """The test patch over the agent's work, its files first put back to the base commit; an error text or "".
    A header's path is data: it must resolve inside the workspace before anything is checked out or removed."""
    names = sorted({rel for pair in _PATCHED.findall(instance.test_patch) for rel in pair})
    for rel in names:
        try:
            resolve_path(workspace, rel, for_write=True)
        except Refusal:
            return f"the test patch names {rel}, which is not a file inside the workspace it may change"
    for rel in names:
        if git(workspace, "cat-file", "-e", f"{instance.base_commit}:{rel}").returncode == 0:
            git(workspace, "checkout", "-q", instance.base_commit, "--", rel, write=True)
        else:
            _remove_added(workspace, rel)  # the agent created it; the patch creates it
    done = git(workspace, "apply", "--whitespace=nowarn", "-", stdin=instance.test_patch, write=True)
    why = done.stderr.decode(errors="replace").strip()[-500:]
    return "" if done.returncode == 0 else f"the test patch did not apply: {why}"


def _remove_added(workspace: Path, rel: str) -> None:
    """Remove the file (or link: never what it names) `rel` names, in its folder as containment resolves it."""
    folder = resolve_path(workspace, os.path.dirname(rel) or ".", for_write=True).real
    path = folder / os.path.basename(rel)
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISREG(mode) or stat.S_ISLNK(mode):
        path.unlink()


def grade_instance(instance: Instance, workspace: Path, timeout: float = GRADE_TIMEOUT_SECONDS) -> Verdict:
    error = apply_test_patch(instance, workspace)
    if error:
        return Verdict(
            False, dict.fromkeys(instance.fail_to_pass, False), dict.fromkeys(instance.pass_to_pass, False), error
        )
    ids = list(dict.fromkeys([*instance.fail_to_pass, *instance.pass_to_pass]))
    command = " ".join([PYTEST, "-rA", *(shlex.quote(i) for i in ids)])
    run = run_tests(workspace, command, [PYTEST], timeout)
    seen = statuses(run.output)
    f2p = {t: seen.get(t) in PASSING for t in instance.fail_to_pass}
    p2p = {t: seen.get(t) in PASSING for t in instance.pass_to_pass}
    return Verdict(all(f2p.values()) and all(p2p.values()), f2p, p2p, run.output)
