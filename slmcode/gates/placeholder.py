"""Placeholder polish: a change must not leave stubs where code should be. Flagged only in lines the task added:
a TODO / FIXME comment, an "implement here" / "your code here" note, a not-implemented raise (Python's
NotImplementedError, Rust's todo!(), ...), and in Python a function whose whole body is `pass` or `...`
(abstract methods, overloads and Protocol members keep theirs)."""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping, Sequence

from slmcode.gates.added import added_lines
from slmcode.gates.task_record import Edit
from slmcode.gates.verdict import GateVerdict

GATE = "placeholder"
TODO = re.compile(r"(?:#|//|/\*|<!--|^\s*\*|\s--\s).*?\b(TODO|FIXME)\b")
STUB = re.compile(
    r"(?i)\b(your code here|implement (?:this |me |it )?here|implementation goes here"
    r"|insert (?:your )?code here|add (?:your |the )?implementation here|fill (?:this |me )?in here)\b"
)
NOT_IMPLEMENTED = {
    ".py": re.compile(r"\braise\s+NotImplementedError\b"),
    ".rs": re.compile(r"\b(?:todo|unimplemented)!\s*\("),
    ".go": re.compile(r"(?i)\bpanic\(\s*\"(?:not implemented|todo|unimplemented)"),
}
GENERIC_NOT_IMPLEMENTED = re.compile(
    r"(?i)\bthrow\s+new\s+(?:\w*Error\(\s*['\"`](?:not implemented|todo)|UnsupportedOperationException|"
    r"NotImplementedException|NotImplementedError)"
)
EXEMPT_DECORATORS = {"abstractmethod", "abstractproperty", "overload"}
SHOWN = 3  # findings named in the evidence line


def _suffix(path: str) -> str:
    dot = path.rfind(".")
    return path[dot:].lower() if dot > path.rfind("/") else ""


def _decorator_names(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    names = set()
    for d in node.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        names.add(target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", ""))
    return names


def _stub_body(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int | None:
    """The line of a body that is only `pass`, `...` or a docstring; None for a real body."""
    body = node.body
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        body = body[1:]
        if not body:
            return node.body[0].lineno
    if len(body) != 1:
        return None
    only = body[0]
    ellipsis = isinstance(only, ast.Expr) and isinstance(only.value, ast.Constant) and only.value.value is Ellipsis
    return only.lineno if isinstance(only, ast.Pass) or ellipsis else None


def _python_findings(text: str, added: set[int]) -> tuple[list[tuple[int, str]], set[int]]:
    """(empty-bodied functions the task added or emptied, lines inside abstract functions) of a Python file."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):  # the smoke gate reports a file that does not compile
        return [], set()
    protocol_members: set[ast.AST] = set()
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        if any("Protocol" in ast.unparse(base) for base in cls.bases):
            protocol_members.update(cls.body)
    findings, abstract = [], set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if _decorator_names(node) & EXEMPT_DECORATORS or node in protocol_members:
            abstract |= set(range(node.lineno, (node.end_lineno or node.lineno) + 1))
            continue
        line = _stub_body(node)
        if line is not None and (line in added or node.lineno in added):
            findings.append((line, f"`{node.name}` has an empty body"))
    return findings, abstract


def file_findings(path: str, text: str, edits: Sequence[Edit]) -> list[tuple[int, str]]:
    """(line, what) for each placeholder among the lines `edits` added to `text`."""
    added = added_lines(edits, text)
    numbers = {n for n, _ in added}
    findings: list[tuple[int, str]] = []
    abstract: set[int] = set()
    if _suffix(path) in (".py", ".pyw"):
        findings, abstract = _python_findings(text, numbers)
    raises = NOT_IMPLEMENTED.get(_suffix(path), GENERIC_NOT_IMPLEMENTED)
    for number, line in added:
        if (match := TODO.search(line)) is not None:
            findings.append((number, f"{match.group(1)} comment `{line.strip()[:60]}`"))
        elif (match := STUB.search(line)) is not None:
            findings.append((number, f"stub note `{line.strip()[:60]}`"))
        elif raises.search(line) and number not in abstract:
            findings.append((number, f"not implemented `{line.strip()[:60]}`"))
    return sorted(set(findings))


def check_placeholders(texts: Mapping[str, str], edits: Sequence[Edit]) -> GateVerdict | None:
    """`texts`: each changed file's text now, by path. None when the task changed no file."""
    if not texts:
        return None
    found = [
        (path, line, what)
        for path in sorted(texts)
        for line, what in file_findings(path, texts[path], [e for e in edits if e.path == path])
    ]
    if not found:
        return GateVerdict(GATE, "PASSED", f"no placeholder in the lines added to {len(texts)} file(s)")
    named = "; ".join(f"{path}:{line} {what}" for path, line, what in found[:SHOWN])
    more = f" (+{len(found) - SHOWN} more)" if len(found) > SHOWN else ""
    return GateVerdict(GATE, "FAILED", f"placeholder left in added code: {named}{more}")
