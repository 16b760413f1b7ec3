"""Aider's polyglot benchmark read from a local checkout: <language>/exercises/practice/<exercise>/ with
.docs/instructions.md (and introduction.md, instructions.append.md), .meta/config.json naming the solution,
test and example files, the stub solution files and the tests.

Aider's protocol, followed here: the prompt is the instructions plus which stub files to change; the exercise
folder is the workspace, tests included (aider copies the whole folder and names only the stubs to its model);
before grading the original tests are copied back over whatever the agent did to them, with skipped tests
switched on as aider's runner does (JavaScript `xtest(`, Java `@Disabled`). One change to fit an agent that
has tools: `.meta/` and the example (reference) solutions are left out of the workspace, since a model that can
list and read files would otherwise find the answer there.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from slmcode.environment import LocalEnvironment
from slmcode.environment.containment import Refusal, resolve_path
from slmcode.errors import SlmcodeError
from slmcode.eval.suite import RUN_LITTER
from slmcode.eval.suites.prompts import POLYGLOT_ADDENDUM, POLYGLOT_RETRY
from slmcode.eval.trees import copy_tree, tree_bytes

PRACTICE = Path("exercises") / "practice"
META = ".meta"
DOCS = ("introduction.md", "instructions.md", "instructions.append.md")  # the prompt, in this order


@dataclass(frozen=True)
class TestCommand:
    command: str  # what grades, in the sandbox
    allowed: tuple[str, ...]  # the whitelist entries it needs
    program: str  # what must be on PATH, else the language is skipped


# Aider's runner's commands, offline: JavaScript needs jest in the exercise's node_modules as aider's image has it.
TEST_COMMANDS = {
    "python": TestCommand("python -m pytest -q", ("python -m pytest",), "python"),
    "javascript": TestCommand("npm test", ("npm test",), "npm"),
    "go": TestCommand("go test ./...", ("go test",), "go"),
    "rust": TestCommand("cargo test --offline -- --include-ignored", ("cargo test",), "cargo"),
    "cpp": TestCommand("cmake -S . -B build && make -C build", ("cmake", "make"), "cmake"),
    "java": TestCommand("./gradlew test --offline", ("./gradlew test",), "java"),
}
_XTEST = re.compile(r"\bxtest\(")
_DISABLED = re.compile(r"@Disabled\([^)]*\)\s*\n")
_TIMING = re.compile(r"\bin \d+\.\d+s\b")


@dataclass(frozen=True)
class Exercise:
    language: str
    name: str
    folder: Path
    solution: tuple[str, ...]
    tests: tuple[str, ...]
    examples: tuple[str, ...]
    instructions: str

    @property
    def id(self) -> str:
        return f"{self.language}/{self.name}"

    @property
    def files(self) -> str:
        """The stubs as the prompt names them (aider: their base names, space-separated)."""
        return " ".join(Path(f).name for f in self.solution)

    @property
    def prompt(self) -> str:
        return self.instructions + POLYGLOT_ADDENDUM.format(files=self.files)

    def retry_prompt(self, test_output: str) -> str:
        """Aider's second try continues its chat; here it is a new run in the same workspace, so the prompt
        carries the instructions again, then the test output and where to fix it."""
        return self.prompt + POLYGLOT_RETRY.format(output=test_output.strip(), files=self.files)


def _read(folder: Path, rel: str) -> bytes | None:
    """A file of the exercise through the exercise folder's containment (no link out, no FIFO or device);
    None when there is none."""
    try:
        return LocalEnvironment(folder).read(rel)
    except (FileNotFoundError, IsADirectoryError):
        return None
    except ValueError:
        raise SlmcodeError(f"{folder / rel}: {_LEAVES}") from None


def _text(data: bytes | None) -> str:
    return "" if data is None else data.decode("utf-8", "replace")


_LEAVES = "leads out of the exercise folder (a symlink, `..` or an absolute path) or is no regular file; refused"


def _config(path: Path, text: str) -> dict[str, list[str]]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SlmcodeError(f"{path}:{exc.lineno}: not valid JSON ({exc.msg})") from None
    files = data.get("files") if isinstance(data, dict) else None
    if (
        not isinstance(files, dict)
        or not isinstance(files.get("solution"), list)
        or not isinstance(files.get("test"), list)
    ):
        raise SlmcodeError(f'{path}: needs "files": {{"solution": [...], "test": [...]}}')
    names = [n for kind in ("solution", "test", "example") for n in files.get(kind) or ()]
    for name in names:
        try:
            resolve_path(path.parent.parent, name if isinstance(name, str) else "")  # only inside the exercise
        except Refusal:
            raise SlmcodeError(f"{path}: {name!r} {_LEAVES}") from None
    return files


def load_exercise(folder: Path, language: str) -> Exercise:
    """One exercise; a missing or malformed file is one line naming it."""
    config_path = folder / META / "config.json"
    config = _read(folder, f"{META}/config.json")
    if config is None:
        raise SlmcodeError(f"{config_path}: missing (every exercise needs .meta/config.json)")
    files = _config(config_path, _text(config))
    parts = [_read(folder, f".docs/{name}") for name in DOCS]
    if parts[1] is None:
        raise SlmcodeError(f"{folder / '.docs' / DOCS[1]}: missing (every exercise needs .docs/instructions.md)")
    instructions = "".join(_text(p) for p in parts)
    tests = tuple(files["test"])
    examples = tuple(files.get("example") or ())
    # As aider: the build files, tests and examples are never the files to change.
    ignored = {"CMakeLists.txt", "Cargo.toml", *tests, *examples}
    solution = tuple(f for f in files["solution"] if f not in ignored and not f.startswith((f"{META}/", ".docs/")))
    return Exercise(language, folder.name, folder, solution, tests, examples, instructions)


def load_polyglot(root: Path, languages: list[str] | None = None) -> list[Exercise]:
    """Every exercise under `root` (optionally only `languages`), in language then name order."""
    if not root.is_dir():
        raise SlmcodeError(f"{root}: not a folder (expected a checkout of Aider's polyglot-benchmark)")
    found = sorted(p for p in root.iterdir() if (p / PRACTICE).is_dir())
    if not found:
        raise SlmcodeError(
            f"{root}: no <language>/{PRACTICE.as_posix()}/<exercise>/ folders "
            "(the layout of Aider's polyglot-benchmark)"
        )
    if languages:
        unknown = sorted(set(languages) - {p.name for p in found})
        if unknown:
            raise SlmcodeError(
                f"{root}: no exercises for {', '.join(unknown)} (languages here: {', '.join(p.name for p in found)})"
            )
        found = [p for p in found if p.name in languages]
    exercises = [ex for lang in found for ex in sorted((lang / PRACTICE).iterdir()) if ex.is_dir()]
    real_root = root.resolve()
    for ex in exercises:
        if not ex.resolve().is_relative_to(real_root):
            raise SlmcodeError(f"{ex}: a symlink out of {root}; refused")
    return [load_exercise(ex, ex.parent.parent.parent.name) for ex in exercises]


def missing_toolchain(language: str) -> str | None:
    """Why `language`'s exercises cannot be graded here, or None."""
    command = TEST_COMMANDS.get(language)
    if command is None:
        return f"no test command for {language} (known: {', '.join(TEST_COMMANDS)})"
    return None if shutil.which(command.program) else f"{command.program} is not installed (needed for {language})"


def _excluded(exercise: Exercise) -> Callable[[str, list[str]], set[str]]:
    examples = {(exercise.folder / e).resolve() for e in exercise.examples}

    def ignore(folder: str, names: list[str]) -> set[str]:
        here = Path(folder).resolve()
        top = {META} if here == exercise.folder.resolve() else set()
        return {n for n in names if n in RUN_LITTER or n in top or (here / n).resolve() in examples}

    return ignore


def copy_exercise(exercise: Exercise, dest: Path) -> Path:
    """The workspace: the exercise folder without .meta/ and the example solutions."""
    return copy_tree(exercise.folder, dest, ignore=_excluded(exercise))


def restore_tests(exercise: Exercise, workspace: Path) -> str:
    """The original tests over the workspace's, every test switched on (as aider's runner does), each written
    through the workspace's Environment; "" or why a test could not be put back (the try fails with it)."""
    env = LocalEnvironment(workspace)
    for rel in exercise.tests:
        data = _read(exercise.folder, rel)
        if data is None:
            continue
        if rel.endswith(".spec.js"):
            data = _XTEST.sub("test(", data.decode()).encode()
        if rel.endswith(".java"):
            data = _DISABLED.sub("", data.decode()).encode()
        try:
            env.write(rel, data)
        except (ValueError, OSError) as exc:  # the agent left a link or a folder where the test goes
            return f"the test file {rel} could not be restored: {exc}"
    return ""


def clean_output(output: str, workspace: Path) -> str:
    """Test output as the model sees it on a second try: no timings, no temporary paths (aider does the same,
    so the prompt does not change from run to run)."""
    return _TIMING.sub("", output).replace(str(workspace), ".")


def changed_files(exercise: Exercise, workspace: Path) -> list[str]:
    """Files the agent added, changed or deleted, compared with the exercise (build output left out)."""
    skip = RUN_LITTER | {META, "build"}
    before, after = tree_bytes(exercise.folder, skip), tree_bytes(workspace, skip)
    before = {p: b for p, b in before.items() if p not in exercise.examples}
    return sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))
