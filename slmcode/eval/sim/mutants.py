"""The SIMULATED model's wrong ideas of a fix, per task: candidate edits made once from the reference solution
and cached, each kept only when it parses and its hidden tests fail under the suite's own grading (grade.py, in
the sandbox). Kinds: a comparison or boundary flipped, a constant changed, a partial fix (one hunk of several
files' changes), the stub unchanged. Mutants touch only the lines the reference changes, as a model that had
the right idea but wrote it wrongly would; Python is rewritten through its ast, other languages by careful
token rewrites (an operator or an integer swapped for one of the same shape, so the text still parses)."""

from __future__ import annotations

import ast
import difflib
import hashlib
import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from slmcode.eval.grade import grade
from slmcode.eval.sim.knowledge import Knowledge
from slmcode.eval.suite import RUN_LITTER, EvalTask, copy_repo

MAX_MUTANTS = 6  # per task: enough wrong ideas to choose between, few enough to grade once on two cores
FLIPS = {"<=": "<", "<": "<=", ">=": ">", ">": ">=", "==": "!=", "!=": "==", "===": "!==", "!==": "==="}
TOKEN = re.compile(r"===|!==|<=|>=|==|!=|(?<![<>=!-])[<>](?![<>=])|\b\d+\b")
PY_FLIPS = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq}


@dataclass(frozen=True)
class Mutant:
    kind: str  # "flip", "constant", "partial", "stub"
    files: dict[str, str]  # path -> the whole text it would leave (the repo's text for a file it leaves alone)
    fails: str  # the tail of the hidden tests' output


def cache_dir() -> Path:
    """A private folder under the user's cache (never a predictable /tmp name): owner-only, checked."""
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "slmcode" / "sim-mutants"
    root.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(root, 0o700)
    if root.stat().st_uid != os.getuid():
        raise PermissionError(f"{root} is not owned by this user")
    return root


def _changed_lines(before: str, after: str) -> set[int]:
    old = before.splitlines()
    lines: set[int] = set()
    for tag, _i1, _i2, j1, j2 in difflib.SequenceMatcher(None, old, after.splitlines(), autojunk=False).get_opcodes():
        if tag != "equal":
            lines.update(range(j1 + 1, j2 + 1))
    return lines


def _python_mutants(after: str, lines: set[int]) -> list[tuple[str, str]]:
    try:
        tree = ast.parse(after)
    except SyntaxError:
        return []
    out: list[tuple[str, str]] = []
    sites = [n for n in ast.walk(tree) if getattr(n, "lineno", 0) in lines]
    for at, node in enumerate(sites):
        if isinstance(node, ast.Compare) and type(node.ops[0]) in PY_FLIPS:
            kind = "flip"
        elif isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
            kind = "constant"
        else:
            continue
        copy = ast.parse(after)
        target = [n for n in ast.walk(copy) if getattr(n, "lineno", 0) in lines][at]
        if isinstance(target, ast.Compare):
            target.ops[0] = PY_FLIPS[type(target.ops[0])]()
        elif isinstance(target, ast.Constant) and isinstance(target.value, int):
            target.value = target.value + 1
        # Only the mutated line is replaced, so the rest of the file keeps its own formatting.
        text_lines = after.splitlines(keepends=True)
        line = getattr(target, "lineno", 0)
        segment = ast.get_source_segment(after, node)
        new = ast.unparse(target)
        if segment and segment in text_lines[line - 1]:
            text_lines[line - 1] = text_lines[line - 1].replace(segment, new, 1)
            out.append((kind, "".join(text_lines)))
    return out


def _token_mutants(after: str, lines: set[int]) -> list[tuple[str, str]]:
    text_lines = after.splitlines(keepends=True)
    out: list[tuple[str, str]] = []
    for number in sorted(lines):
        line = text_lines[number - 1]
        if line.lstrip().startswith(("//", "#", "*")):
            continue
        for found in TOKEN.finditer(line):
            token = found.group(0)
            new, kind = (FLIPS[token], "flip") if token in FLIPS else (str(int(token) + 1), "constant")
            mutated = line[: found.start()] + new + line[found.end() :]
            out.append((kind, "".join([*text_lines[: number - 1], mutated, *text_lines[number:]])))
    return out


def candidates(knowledge: Knowledge) -> list[tuple[str, dict[str, str]]]:
    """Every wrong edit worth grading, in a fixed order: mutants of each changed file, a partial fix, the stub."""
    changes = knowledge.changes
    reference = {c.path: c.after for c in changes}
    out: list[tuple[str, dict[str, str]]] = []
    for change in changes:
        lines = _changed_lines(change.before, change.after)
        make = _python_mutants if change.path.endswith(".py") else _token_mutants
        out += [(kind, {**reference, change.path: text}) for kind, text in make(change.after, lines)]
    if len(changes) > 1:
        out.append(("partial", {changes[0].path: changes[0].after}))
    elif changes and len(changes[0].hunks) > 1:
        first = changes[0].hunks[0]
        out.append(("partial", {changes[0].path: changes[0].before.replace(first.old_str, first.new_str, 1)}))
    out.append(("stub", {}))
    return out


def _fingerprint(task: EvalTask) -> str:
    """The cache key: everything grading reads (the language's test command, the repository with its visible
    tests, the reference, the hidden tests), so a changed task is graded again; run litter is not content."""
    digest = hashlib.sha256(f"{task.id}\0{task.test_command}".encode())
    for root in (task.repo, task.solution, task.hidden):
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            rel = path.relative_to(root)
            if not RUN_LITTER.intersection(rel.parts):
                digest.update(rel.as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:24]


def _parses(path: str, text: str) -> bool:
    if not path.endswith(".py"):
        return True  # token rewrites keep the shape; grading compiles the rest
    try:
        ast.parse(text)
    except SyntaxError:
        return False
    return True


def _graded(task: EvalTask, kind: str, files: dict[str, str]) -> Mutant | None:
    if not all(_parses(p, t) for p, t in files.items()):
        return None
    with tempfile.TemporaryDirectory(prefix="slmcode-mutant-") as scratch:
        workspace = copy_repo(task, Path(scratch) / "ws")
        for rel, text in files.items():
            (workspace / rel).parent.mkdir(parents=True, exist_ok=True)
            (workspace / rel).write_text(text, encoding="utf-8")
        graded = grade(task, workspace, timeout=60)
    return None if graded.passed else Mutant(kind, files, graded.output)


def wrong_edits(task: EvalTask, knowledge: Knowledge | None = None) -> list[Mutant]:
    """The task's kept wrong edits, made and graded once, then read from the private cache."""
    path = cache_dir() / f"{_fingerprint(task)}.json"
    if path.is_file():
        return [Mutant(m["kind"], m["files"], m["fails"]) for m in json.loads(path.read_text())]
    kept: list[Mutant] = []
    all_candidates = candidates(knowledge or Knowledge(task))
    mutants = [c for c in all_candidates if c[0] in ("flip", "constant")][:MAX_MUTANTS]
    for kind, files in mutants + [c for c in all_candidates if c[0] not in ("flip", "constant")]:
        graded = _graded(task, kind, files)
        if graded is not None:
            kept.append(graded)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    with os.fdopen(fd, "w") as out:
        json.dump([m.__dict__ for m in kept], out)
    os.replace(tmp, path)
    return kept


def reference_fails(task: EvalTask) -> str | None:
    """Why the task's reference solution fails its own hidden tests here (a toolchain without what the tests
    need), or None when it passes: graded once, then read from the private cache. A task whose reference fails
    measures nothing and is skipped."""
    path = cache_dir() / f"{_fingerprint(task)}.reference.json"
    if path.is_file():
        return json.loads(path.read_text())["fails"]
    reference = {c.path: c.after for c in Knowledge(task).changes}
    graded = _graded(task, "reference", reference)
    fails = None if graded is None else graded.fails.strip().splitlines()[-1:] or ["its tests fail"]
    why = None if fails is None else f"the reference solution fails here: {fails[0][:200]}"
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    with os.fdopen(fd, "w") as out:
        json.dump({"fails": why}, out)
    os.replace(tmp, path)
    return why
