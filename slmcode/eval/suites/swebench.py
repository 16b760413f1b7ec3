"""SWE-bench instances read from a JSONL file (one instance a line, the dataset's own fields) and run against
local clones the user points to: DIR/<owner>__<name> (SWE-bench's own naming) or DIR/<name>.

Per instance the workspace is a fresh clone of the user's clone, checked out at base_commit: the user's clone
is only read (by host git through gitsafe: `cat-file` and `clone` run none of its filters or hooks). Every git
call on the workspace itself goes through the Environment, inside the wall, as the harness's own do. A missing
clone or commit is one line, and the instance is skipped with that reason.
"""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from slmcode.environment import Completed, LocalEnvironment
from slmcode.environment.gitsafe import OUTSIDE, git_argv, git_env
from slmcode.errors import SlmcodeError
from slmcode.eval.suite import RUN_LITTER
from slmcode.eval.suites.prompts import SWEBENCH_TASK

# A repository's owner and name choose the clone's folder under --repos: names as GitHub allows, never `..`.
_NAME = re.compile(r"(?!\.{1,2}$)[A-Za-z0-9_.-]+")
REQUIRED = ("instance_id", "repo", "base_commit", "problem_statement", "FAIL_TO_PASS", "PASS_TO_PASS", "test_patch")


@dataclass(frozen=True)
class Instance:
    instance_id: str
    repo: str  # owner/name
    base_commit: str
    problem_statement: str
    fail_to_pass: tuple[str, ...]
    pass_to_pass: tuple[str, ...]
    test_patch: str
    hints_text: str = ""
    version: str = ""
    patch: str = ""  # the gold patch: what the simulated model knows as the fix (suites/swebench_sim.py)

    @property
    def prompt(self) -> str:
        # As the published tables run it: the problem statement alone, no hints.
        return SWEBENCH_TASK.format(problem=self.problem_statement.strip())

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Instance:
        return cls(**{**data, "fail_to_pass": tuple(data["fail_to_pass"]), "pass_to_pass": tuple(data["pass_to_pass"])})


def _test_ids(value: Any, where: str, field: str) -> tuple[str, ...]:
    """The dataset stores test lists as JSON text ("[\"a\", ...]"); a list is taken as it is."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            raise SlmcodeError(f"{where}: {field} is neither a list nor JSON text of one") from None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SlmcodeError(f"{where}: {field} must be a list of test ids")
    return tuple(value)


def parse_instance(line: str, where: str) -> Instance:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise SlmcodeError(f"{where}: not valid JSON ({exc.msg}, column {exc.colno})") from None
    if not isinstance(data, dict):
        raise SlmcodeError(f"{where}: expected a JSON object, one instance a line")
    missing = [f for f in REQUIRED if f not in data]
    if missing:
        raise SlmcodeError(f"{where}: missing {', '.join(missing)}")
    texts = [
        f
        for f in ("instance_id", "repo", "base_commit", "problem_statement", "test_patch")
        if not isinstance(data[f], str) or not data[f]
    ]
    if texts:
        raise SlmcodeError(f"{where}: {', '.join(texts)} must be non-empty text")
    if data["repo"].count("/") != 1 or not all(_NAME.fullmatch(part) for part in data["repo"].split("/")):
        raise SlmcodeError(f"{where}: repo must read owner/name, got '{data['repo']}'")
    return Instance(
        data["instance_id"],
        data["repo"],
        data["base_commit"],
        data["problem_statement"],
        _test_ids(data["FAIL_TO_PASS"], where, "FAIL_TO_PASS"),
        _test_ids(data["PASS_TO_PASS"], where, "PASS_TO_PASS"),
        data["test_patch"],
        str(data.get("hints_text") or ""),
        str(data.get("version") or ""),
        data["patch"] if isinstance(data.get("patch"), str) else "",
    )


def load_instances(path: Path) -> list[Instance]:
    """Every instance of the file, in its order; a bad line is one error naming the file and the line."""
    if not path.is_file():
        raise SlmcodeError(f"{path}: no such file (expected SWE-bench instances, one JSON object a line)")
    instances: list[Instance] = []
    seen: set[str] = set()
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        instance = parse_instance(line, f"{path}:{number}")
        if instance.instance_id in seen:
            raise SlmcodeError(f"{path}:{number}: instance {instance.instance_id} appears twice")
        seen.add(instance.instance_id)
        instances.append(instance)
    if not instances:
        raise SlmcodeError(f"{path}: no instances")
    return instances


def host_git(cwd: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """git on the user's clone, through gitsafe: no hook, fsmonitor or pager of its configuration runs."""
    return subprocess.run(
        git_argv(*args), cwd=cwd, env=git_env(), capture_output=True, text=True, timeout=timeout, check=False
    )


def git(
    workspace: Path, *args: str, stdin: str | None = None, write: bool | None = None, timeout: float = 600
) -> Completed:
    """git on an instance's workspace, inside the wall (environment/)."""
    return LocalEnvironment(workspace).git(
        *args, write=write, input=None if stdin is None else stdin.encode(), timeout=timeout
    )


def find_clone(instance: Instance, repos: Path) -> tuple[Path | None, str]:
    """The user's clone holding the instance's base commit, or None and why not."""
    owner, name = instance.repo.split("/")
    candidates = [repos / f"{owner}__{name}", repos / name]
    clone = next((c for c in candidates if (c / ".git").exists()), None)
    if clone is None:
        looked = " or ".join(str(c) for c in candidates)
        return None, f"no clone of {instance.repo} (looked for {looked})"
    if host_git(clone, "cat-file", "-e", f"{instance.base_commit}^{{commit}}").returncode != 0:
        return None, f"{clone} has no commit {instance.base_commit[:12]} (fetch it or clone the full history)"
    return clone, ""


def checkout(clone: Path, commit: str, dest: Path) -> Path:
    """A fresh clone of `clone` at `commit` in `dest` (detached; the user's clone is only read)."""
    cloned = host_git(dest.parent, "clone", "-q", "--no-checkout", str(clone.absolute()), str(dest))
    if cloned.returncode != 0:
        raise SlmcodeError(f"git clone for {dest.name} failed: {cloned.stderr.strip()[-300:]}")
    checked = git(dest, "checkout", "-q", "--detach", commit, write=True)
    if checked.returncode != 0:
        raise SlmcodeError(f"git checkout for {dest.name} failed: {checked.stderr.decode(errors='replace')[-300:]}")
    return dest


def touched_files(base_commit: str, workspace: Path) -> list[str]:
    """Files the agent changed, committed or not, or added, compared with the base commit (slmcode's own state
    left out)."""
    changed = git(workspace, "diff", "--no-ext-diff", "--no-textconv", "--name-only", base_commit, "--", ".", OUTSIDE)
    added = git(workspace, "ls-files", "--others", "--exclude-standard", "--", ".", OUTSIDE)
    names = set(changed.stdout.decode(errors="replace").splitlines()) | set(
        added.stdout.decode(errors="replace").splitlines()
    )
    return sorted(n for n in names if n and not RUN_LITTER.intersection(Path(n).parts))
