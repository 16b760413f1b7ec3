"""Aider's polyglot exercises laid out as the simulator's tasks (eval/suite.py's layout), so `eval --suite
polyglot DIR --sim PROFILE` measures them as it does the bundled suite: repo/ is the workspace aider's model
gets (the stubs and the tests, without .meta/ and the example solutions), hidden/ the tests as aider's runner
grades them (every test switched on), solution/ the example (`.meta/example.*`, `.meta/proof.*`) written over
the stub it solves. The prompt and the second try's wording are aider's (suites/prompts.py).

The layout goes to a private temporary folder; the checkout's files are only read. An exercise whose example
cannot be matched to its stubs is left out with the reason."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path, PurePosixPath

import yaml

from slmcode.eval.suite import EvalTask, load_task
from slmcode.eval.suites.polyglot import TEST_COMMANDS, Exercise, copy_exercise, restore_tests
from slmcode.eval.suites.prompts import POLYGLOT_RETRY


def _stem(path: str) -> str:
    return PurePosixPath(path).name.split(".")[0].lower()


def example_for(exercise: Exercise) -> dict[str, str]:
    """stub path -> the example file that solves it: the same file name, else the same suffix, else the only
    one; {} when they cannot be paired."""
    examples = [e for e in exercise.examples if (exercise.folder / e).is_file()]
    paired: dict[str, str] = {}
    for stub in exercise.solution:
        name, suffix = PurePosixPath(stub).name, PurePosixPath(stub).suffix
        same_name = [e for e in examples if PurePosixPath(e).name == name]
        same_suffix = [e for e in examples if PurePosixPath(e).suffix == suffix]
        found = same_name or (same_suffix if len(same_suffix) == 1 else [])
        if not found and len(examples) == 1 == len(exercise.solution):
            found = examples
        if not found:
            return {}
        paired[stub] = found[0]
    return paired


def task_id(exercise: Exercise) -> str:
    return f"{exercise.language}-{exercise.name}"


def lay_out(exercise: Exercise, root: Path, tries: int) -> EvalTask | str:
    """The exercise as a task folder under `root`, or why it cannot be one."""
    paired = example_for(exercise)
    if not paired:
        return f"no example solution pairs with {', '.join(exercise.solution) or 'its stubs'}"
    folder = root / task_id(exercise)
    copy_exercise(exercise, folder / "repo")
    hidden = folder / "hidden"
    hidden.mkdir()
    restore_tests(exercise, hidden)
    for stub, example in paired.items():
        target = folder / "solution" / stub
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(exercise.folder / example, target)
    meta = {
        "language": exercise.language,
        "kind": "multi-file" if len(paired) > 1 else "feature",
        "title": exercise.id,
        "test_command": TEST_COMMANDS[exercise.language].command,
        "retry": POLYGLOT_RETRY.replace("{files}", exercise.files),  # {output} is filled on the second try
        "tries": tries,
        "files": list(exercise.solution),
    }
    (folder / "meta.yaml").write_text(yaml.safe_dump(meta, sort_keys=True))
    (folder / "task.md").write_text(exercise.prompt)
    return load_task(folder)


def lay_out_all(exercises: list[Exercise], tries: int) -> tuple[Path, list[EvalTask], dict[str, str]]:
    """Every exercise laid out in a new private folder (the caller removes it): (folder, tasks, skipped)."""
    root = Path(tempfile.mkdtemp(prefix="slmcode-polyglot-sim-"))
    tasks: list[EvalTask] = []
    skipped: dict[str, str] = {}
    for exercise in exercises:
        made = lay_out(exercise, root, tries)
        if isinstance(made, str):
            skipped[exercise.id] = made
        else:
            tasks.append(made)
    return root, tasks, skipped
