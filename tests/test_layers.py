"""The module map in README's development section, enforced: each package imports only the packages listed for
it, and no two packages import each other (directly or round about). Imports under TYPE_CHECKING are types,
not dependencies, and are left out. A new edge is a decision: make it here and in README's map together."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import slmcode

ROOT = Path(slmcode.__file__).parent
BASE = {"config", "errors", "redact", "settings", "state", "store", "trust"}  # read by everyone

# package -> what it may import besides BASE (README's "Module map")
MAY_IMPORT: dict[str, set[str]] = {
    "cli": {"commands"},
    "commands": {"api", "blocks", "board", "budget", "compact", "environment", "eval", "gitrun", "mcp", "memory", "nodes", "packs",
                 "providers", "readiness", "serving", "tools", "view", "web"},
    "view": {"api"},
    "web": {"api", "board", "compact", "memory", "tools"},
    "api": {"compact", "graph", "memory", "runner", "runstate"},
    "runner": {"blocks", "gitrun", "graph", "hooks", "mcp", "memory", "nodes", "providers", "run_context",
               "runstate", "serving"},
    "board": {"blocks", "graph", "memory", "nodes", "runstate"},
    "eval": {"api", "environment", "nodes", "providers", "tools"},
    "graph": {"blocks", "nodes", "run_context"},
    "nodes": {"blocks", "budget", "compact", "environment", "gates", "hooks", "mcp", "memory", "packs", "providers",
              "run_context", "tools"},
    "run_context": {"blocks", "environment", "providers", "serverpolicy", "serving"},
    "gates": {"blocks", "compact", "environment", "tools"},
    "gitrun": {"environment", "memory", "tools"},
    "hooks": {"blocks", "environment", "tools"},
    "mcp": {"budget", "environment", "tools"},
    "readiness": {"environment"},
    "runstate": set(),
    "serverpolicy": set(),
    "serving": {"providers"},
    "memory": {"compact"},
    "blocks": set(),
    "compact": {"budget", "packs", "tools"},
    "packs": {"budget", "environment", "tools"},
    "providers": {"budget"},
    "environment": set(),
    "tools": {"environment"},
    "budget": set(),
    "store": set(),
    "config": set(),
    "settings": set(),
    "trust": set(),
    "errors": set(),
    "redact": set(),
    "state": set(),
}


def _package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "slmcode"


def _imports() -> dict[str, dict[str, str]]:
    """package -> {imported package: one file that imports it}."""
    found: dict[str, dict[str, str]] = defaultdict(dict)
    for path in ROOT.rglob("*.py"):
        relative = path.relative_to(ROOT.parent).with_suffix("")
        source = _package(".".join(relative.parts))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                       and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("slmcode"):
                names = [node.module] if node.module != "slmcode" else [f"slmcode.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names if a.name.startswith("slmcode.")]
            else:
                continue
            for name in names:
                target = _package(name)
                if target not in (source, "slmcode"):
                    found[source].setdefault(target, str(path.relative_to(ROOT.parent)))
    return found


def test_every_package_imports_only_what_the_module_map_allows() -> None:
    imports = _imports()
    assert set(imports) <= set(MAY_IMPORT), f"packages missing from the map: {set(imports) - set(MAY_IMPORT)}"
    upward = [f"{source} -> {target} ({where})" for source, targets in sorted(imports.items())
              for target, where in sorted(targets.items()) if target not in MAY_IMPORT[source] | BASE]
    assert upward == []


def test_no_two_packages_depend_on_each_other() -> None:
    imports = _imports()

    def reach(start: str) -> set[str]:
        seen: set[str] = set()
        stack = [start]
        while stack:
            for target in imports.get(stack.pop(), {}):
                if target not in seen:
                    seen.add(target)
                    stack.append(target)
        return seen

    assert sorted(p for p in imports if p in reach(p)) == []


def test_the_lowest_layers_import_nothing_above_them() -> None:
    imports = _imports()
    assert set(imports.get("budget", {})) <= {"config"}
    assert set(imports.get("store", {})) <= {"errors", "redact"}


def test_nothing_above_providers_imports_the_http_client() -> None:
    """providers/ turns the openai client's errors into slmcode.errors' own; a module elsewhere that imports
    `openai` (or langchain_openai) catches what it should be told in the project's words."""
    found = []
    for path in ROOT.rglob("*.py"):
        if path.relative_to(ROOT).parts[0] == "providers":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{path.relative_to(ROOT.parent)}: {n}" for n in names
                      if n.split(".")[0] in ("openai", "langchain_openai")]
    assert found == []
