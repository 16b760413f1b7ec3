"""The bundled suite: one folder per task under data/suite/<id>/ (task material, outside the code folders).

    meta.yaml   language, kind (bug | feature | multi-file | map), title
    task.md     what the agent is asked, in a user's words
    repo/       the tiny repository the agent works on (copied fresh for every attempt); its tests, which the
                agent sees, include one that fails until the change is made (SWE-bench's FAIL_TO_PASS)
    hidden/     tests the agent never sees, copied over the finished work only to grade it
    solution/   reference files that make the hidden tests pass (checked by the suite's own test)

    base:, changes:  a task in one of the larger shared repositories: its repo/ holds only what differs from
                the base, and it has no solution/ of its own (eval/overlay.py lays both out on use)

A language whose toolchain is not installed is skipped with the reason, never counted as a failure.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import yaml

from slmcode.errors import SlmcodeError
from slmcode.eval.overlay import laid_out
from slmcode.eval.trees import tree_bytes

SUITE_DIR = Path(__file__).resolve().parent.parent / "data" / "suite"
# The command that runs a language's tests; the same one grades, inside the sandbox.
TEST_COMMANDS = {
    "python": "python -m pytest -q",
    "javascript": "node --test",
    "rust": "cargo test --offline -q",
    "go": "go test ./...",
}
TOOLCHAINS = {"python": "python", "javascript": "node", "rust": "cargo", "go": "go", "cpp": "cmake", "java": "java"}
KINDS = ("bug", "feature", "multi-file", "map")
# What a run leaves in the workspace that is not part of the work: not a change, not copied back.
RUN_LITTER = frozenset(
    {".slmcode", ".git", "__pycache__", ".pytest_cache", "target", "node_modules", "Cargo.lock", "package-lock.json"}
)


@dataclass(frozen=True)
class EvalTask:
    id: str
    language: str
    kind: str
    title: str
    prompt: str
    folder: Path
    # A standard suite's exercise laid out as a task (suites/polyglot_sim.py) names its own grading command and,
    # for a second try, what follows the prompt (with {output}: the failing tests' output).
    command: str = ""
    retry: str = ""
    tries: int = 1
    base: str = ""  # the shared repository the task's repo/ is an overlay on, if any (eval/overlay.py)
    changes: tuple[str, ...] = ()  # the files its change touches, `+path` for one it adds

    def _laid_out(self) -> Path:
        return laid_out(self.folder, self.base, self.changes) if self.base else self.folder

    @property
    def repo(self) -> Path:
        return self._laid_out() / "repo"

    @property
    def hidden(self) -> Path:
        return self.folder / "hidden"

    @property
    def solution(self) -> Path:
        return self._laid_out() / "solution"

    @property
    def test_command(self) -> str:
        return self.command or TEST_COMMANDS[self.language]


def load_task(folder: Path) -> EvalTask:
    meta = yaml.safe_load((folder / "meta.yaml").read_text())
    language, kind = meta["language"], meta["kind"]
    command = str(meta.get("test_command") or "")
    if (language not in TEST_COMMANDS and not command) or language not in TOOLCHAINS or kind not in KINDS:
        raise SlmcodeError(f"eval task {folder.name}: unknown language '{language}' or kind '{kind}'")
    prompt = (folder / "task.md").read_text().strip()
    retry, tries = str(meta.get("retry") or ""), int(meta.get("tries") or 1)
    base, changes = str(meta.get("base") or ""), tuple(str(c) for c in meta.get("changes") or ())
    if base and not changes:
        raise SlmcodeError(f"eval task {folder.name}: a task on base '{base}' names the files it changes")
    return EvalTask(folder.name, language, kind, meta["title"], prompt, folder, command, retry, tries, base, changes)


def load_suite(root: Path = SUITE_DIR) -> list[EvalTask]:
    """Every task of the suite, in id order."""
    return [load_task(f) for f in sorted(root.iterdir()) if (f / "meta.yaml").is_file()]


def select(tasks: list[EvalTask], *, task_id: str | None = None, count: int | None = None) -> list[EvalTask]:
    """One task by id, or the first `count` spread over the languages (a round-robin, so a small subset is
    not all Python)."""
    if task_id is not None:
        chosen = [t for t in tasks if t.id == task_id]
        if not chosen:
            raise SlmcodeError(f"no eval task '{task_id}' (`slmcode eval --list` lists them)")
        return chosen
    if count is None:
        return tasks
    by_language: dict[str, list[EvalTask]] = {}
    for task in tasks:
        by_language.setdefault(task.language, []).append(task)
    spread: list[EvalTask] = []
    while len(spread) < min(count, len(tasks)):
        for queue in by_language.values():
            if queue and len(spread) < count:
                spread.append(queue.pop(0))
    return spread


def missing_toolchain(language: str) -> str | None:
    """Why `language`'s tasks cannot run here, or None when its toolchain is on PATH."""
    program = TOOLCHAINS[language]
    return None if shutil.which(program) else f"{program} is not installed (needed for {language} tasks)"


def _litter(_folder: str, names: list[str]) -> set[str]:
    return {n for n in names if n in RUN_LITTER}


def copy_repo(task: EvalTask, dest: Path) -> Path:
    """A fresh copy of the task's repository at `dest`."""
    shutil.copytree(task.repo, dest, ignore=_litter)
    return dest


def overlay(source: Path, workspace: Path) -> None:
    """Copy every file of `source` over `workspace` (hidden tests for grading, or a reference solution)."""
    for path in sorted(source.rglob("*")):
        if path.is_file():
            target = workspace / path.relative_to(source)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)


def changed_files(task: EvalTask, workspace: Path) -> list[str]:
    """Files the agent added, changed or deleted, compared with the task's original repository."""

    before, after = tree_bytes(task.repo, RUN_LITTER), tree_bytes(workspace, RUN_LITTER)
    return sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))
