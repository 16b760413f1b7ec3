"""SWE-bench instances laid out as the simulator's tasks (eval/suite.py's layout), so `eval --suite swebench FILE
--repos DIR --sim PROFILE` measures them as it does the bundled suite and the polyglot exercises: repo/ is the
instance's repository at its base commit (the workspace an agent gets, without the test patch), hidden/ the
files the test patch leaves (copied over the finished work to grade it), solution/ the files the gold patch
leaves (the reference the simulated model knows). Grading runs the test files the test patch touches with pytest,
as SWE-bench's own harness does, and asks that every test there passes: FAIL_TO_PASS and PASS_TO_PASS are those
files' tests, so this is SWE-bench's "resolved" wherever the gold patch passes them all; an instance whose gold
patch leaves another test there failing is skipped, its reference failing. The files, not the ids, because the
same command is the check the agents are told to run, and a few hundred ids would fill a small model's window.

Each instance is cloned from the user's clone at its base commit and both patches are applied there, inside
the wall (suites/swebench.py); the user's clone is only read. A path a patch names is data: it resolves through
the clone's containment before any file is read or written. An instance the simulator cannot know (no gold
patch, a patch that does not apply, a gold patch that deletes a file) is left out with the reason."""

from __future__ import annotations

import re
import shlex
import shutil
import tempfile
from pathlib import Path

import yaml

from slmcode.environment import LocalEnvironment
from slmcode.environment.containment import Refusal, resolve_path
from slmcode.errors import SlmcodeError
from slmcode.eval.suite import RUN_LITTER, EvalTask, load_task
from slmcode.eval.suites.run import folder_name
from slmcode.eval.suites.swebench import Instance, checkout, find_clone, git
from slmcode.eval.suites.swegrade import PYTEST
from slmcode.eval.trees import copy_tree

_PATCHED = re.compile(r"^diff --git a/(\S+) b/(\S+)$", re.MULTILINE)


def grading_command(test_files: list[str]) -> str:
    """pytest over the test patch's test files: exit 0 when every test in them passes."""
    return " ".join([PYTEST, "-rA", *(shlex.quote(f) for f in test_files)])


def patched_paths(patch: str, work: Path) -> list[str]:
    """The paths a patch's headers name, each resolved inside `work` first (SlmcodeError naming one that is not)."""
    names = sorted({rel for pair in _PATCHED.findall(patch) for rel in pair})
    for rel in names:
        try:
            resolve_path(work, rel, for_write=True)
        except Refusal:
            raise SlmcodeError(f"the patch names {rel}, which is not a file inside the repository") from None
    return names


def _apply(work: Path, patch: str, what: str, *, reverse: bool = False) -> None:
    args = ["apply", "--whitespace=nowarn", *(["-R"] if reverse else []), "-"]
    done = git(work, *args, stdin=patch, write=True)
    if done.returncode != 0:
        why = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["git apply failed"]
        raise SlmcodeError(f"the {what} does not apply at the base commit: {why[0][:200]}")


def _leave(work: Path, patch: str, what: str, into: Path, *, deletions: bool) -> list[str]:
    """Apply `patch` in `work`, copy the files it leaves into `into` and take it back out; the paths copied."""
    names = patched_paths(patch, work)
    _apply(work, patch, what)
    env, kept = LocalEnvironment(work), []
    try:
        for rel in names:
            try:
                data = env.read(rel)
            except FileNotFoundError:
                if deletions:
                    raise SlmcodeError(f"the {what} deletes {rel}; the simulator's reference is whole files") from None
                continue  # a test file the patch removes: grading copies files in, it cannot take one away
            except (IsADirectoryError, ValueError):
                raise SlmcodeError(f"the {what} leaves {rel} as no regular file inside the repository") from None
            target = into / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            kept.append(rel)
    finally:
        _apply(work, patch, what, reverse=True)
    return kept


def _litter(_folder: str, names: list[str]) -> set[str]:
    return {n for n in names if n in RUN_LITTER}


def lay_out(instance: Instance, repos: Path, root: Path) -> EvalTask | str:
    """The instance as a task folder under `root`, or why it cannot be one."""
    if not instance.patch.strip():
        return "no gold patch (the simulator needs the instance's `patch` field)"
    clone, why = find_clone(instance, repos)
    if clone is None:
        return why
    folder = root / folder_name(instance.instance_id)
    folder.mkdir()
    work = folder / "work"
    try:
        checkout(clone, instance.base_commit, work)
        tests = _leave(work, instance.test_patch, "test patch", folder / "hidden", deletions=False)
        if not any(t.endswith(".py") for t in tests):
            return "the test patch leaves no Python test file to run"
        files = _leave(work, instance.patch, "gold patch", folder / "solution", deletions=True)
        copy_tree(work, folder / "repo", ignore=_litter)
    except SlmcodeError as exc:
        return str(exc)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    (folder / "hidden").mkdir(exist_ok=True)
    meta = {
        "language": "python",
        "kind": "multi-file" if len(files) > 1 else "bug",
        "title": instance.instance_id,
        "test_command": grading_command([t for t in tests if t.endswith(".py")]),
        "tries": 1,  # SWE-bench's protocol: one attempt, no second try with the failing output
        "files": files,
    }
    (folder / "meta.yaml").write_text(yaml.safe_dump(meta, sort_keys=True))
    (folder / "task.md").write_text(instance.prompt)
    return load_task(folder)


def lay_out_all(instances: list[Instance], repos: Path) -> tuple[Path, dict[str, EvalTask], dict[str, str]]:
    """Every instance laid out in a new private folder (the caller removes it): (folder, instance id -> task,
    instance id -> why it was left out)."""
    root = Path(tempfile.mkdtemp(prefix="slmcode-swebench-sim-"))
    tasks: dict[str, EvalTask] = {}
    skipped: dict[str, str] = {}
    for instance in instances:
        made = lay_out(instance, repos, root)
        if isinstance(made, str):
            skipped[instance.instance_id] = made
        else:
            tasks[instance.instance_id] = made
    return root, tasks, skipped
