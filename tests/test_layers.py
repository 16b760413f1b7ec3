"""The layer table of docs/architecture.md#layers, enforced: each package imports only the packages listed for
it, and no two packages import each other (directly or round about). Imports under TYPE_CHECKING are types,
not dependencies, and are left out. A new edge is a decision: make it here and in docs/architecture.md's
table together."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import slmcode

ROOT = Path(slmcode.__file__).parent
BASE = {"config", "errors", "redact", "settings", "state", "store", "treewalk", "trust"}  # read by everyone

# package -> what it may import besides BASE (docs/architecture.md#layers)
MAY_IMPORT: dict[str, set[str]] = {
    "cli": {"commands"},
    "commands": {
        "api",
        "blocks",
        "budget",
        "compact",
        "environment",
        "eval",
        "gitrun",
        "localize",
        "mcp",
        "memory",
        "nodes",
        "packs",
        "providers",
        "readiness",
        "repomap",
        "run_board",
        "serving",
        "terminal",
        "tools",
        "web",
    },
    "terminal": {"api"},
    "web": {"api", "compact", "memory", "run_board", "tools"},
    "api": {"compact", "graph", "memory", "runner"},
    "runner": {"blocks", "gitrun", "graph", "hooks", "mcp", "memory", "nodes", "providers", "run_context", "serving"},
    "run_board": {"blocks", "graph", "memory", "nodes"},
    "eval": {"api", "environment", "nodes", "providers", "tools"},
    "graph": {"blocks", "nodes", "run_context"},
    "nodes": {
        "blocks",
        "budget",
        "compact",
        "environment",
        "gates",
        "hooks",
        "mcp",
        "memory",
        "packs",
        "providers",
        "repomap",
        "run_context",
        "tools",
    },
    "run_context": {"blocks", "environment", "providers", "serverpolicy", "serving"},
    "gates": {"blocks", "compact", "environment", "tools"},
    "gitrun": {"environment", "memory", "tools"},
    "hooks": {"blocks", "environment", "tools"},
    "mcp": {"budget", "environment", "tools"},
    "readiness": {"environment"},
    "serverpolicy": set(),
    "serving": {"providers"},
    "memory": {"compact"},
    "blocks": set(),
    "compact": {"budget", "packs", "tools"},
    "packs": {"budget", "environment", "localize", "repomap", "tools"},
    "localize": {"repomap"},
    "repomap": {"budget", "environment"},
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
    "treewalk": set(),
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
        typing_only = {
            id(n)
            for node in ast.walk(tree)
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            for n in ast.walk(node)
        }
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
    upward = [
        f"{source} -> {target} ({where})"
        for source, targets in sorted(imports.items())
        for target, where in sorted(targets.items())
        if target not in MAY_IMPORT[source] | BASE
    ]
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
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else ([node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            )
            found += [
                f"{path.relative_to(ROOT.parent)}: {n}"
                for n in names
                if n.split(".")[0] in ("openai", "langchain_openai")
            ]
    assert found == []


# Modules outside environment/ that may start a process, each with its reason. Every program the agent, a gate, a
# hook, an MCP server or the harness's git runs goes through an Environment; these start only slmcode's own or the
# user's chosen programs, never the workspace's.
MAY_START_PROCESSES = {
    "providers/embedded.py": "starts the embedded llama.cpp model server the user installed",
    "eval/process.py": "starts slmcode's own attempt process (python -m slmcode.eval.attempt, .suites.attempt)",
    "eval/suites/swebench.py": "host git on the user's own SWE-bench clone outside any workspace: objects only "
    "(cat-file -e, clone --no-checkout: no checkout, so no filter runs), gitsafe's switches",
}
# What starts a program (subprocess's constants and exceptions may be used: shell.py reads Launcher's pipes).
# multiprocessing is not here: it forks slmcode's own Python (the repo map's parse workers), never a program.
STARTS = {
    "subprocess": {"Popen", "run", "call", "check_call", "check_output", "getoutput", "getstatusoutput"},
    "os": {"system", "popen", "fork", "forkpty", "posix_spawn", "posix_spawnp"},
    "asyncio": {"create_subprocess_exec", "create_subprocess_shell"},
    "pty": {"spawn", "fork"},
}


def _starts_processes(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in STARTS:
            found += [f"from {node.module} import {a.name}" for a in node.names if a.name in STARTS[node.module]]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):  # a call, not a type annotation
            owner, name = getattr(node.func.value, "id", ""), node.func.attr
            if name in STARTS.get(owner, ()) or (owner == "os" and name.startswith(("exec", "spawn"))):
                found.append(f"{owner}.{name}")
    return found


def test_only_the_environment_starts_programs() -> None:
    offenders = []
    for path in sorted(ROOT.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith("environment/") or relative in MAY_START_PROCESSES:
            continue
        found = _starts_processes(ast.parse(path.read_text(encoding="utf-8")))
        if found:
            offenders.append(f"{relative}: {', '.join(sorted(set(found)))}")
    assert offenders == [], "start it through an Environment (environment/protocol.py) or list it with its reason"
    assert all(
        (ROOT / p).is_file() and _starts_processes(ast.parse((ROOT / p).read_text())) for p in MAY_START_PROCESSES
    ), "an allowlisted module no longer starts a process: take it off the list"


# Where the workspace's files change: Environment.write, nothing else in the layers that act for the model. These
# write only slmcode's own state under .slmcode (store.paths), each with its reason.
WRITE_CALLS = {"write_text", "write_bytes", "unlink", "atomic_write_bytes", "atomic_write_text"}  # by name
WRITE_MODULE_CALLS = {
    "os": {"replace", "rename", "remove", "truncate"},
    "shutil": {"copy", "copy2", "copyfile", "copytree", "move", "rmtree"},
}
MAY_WRITE = {  # module: (the calls it may make, why)
    "tools/permissions.py": (
        {"write_text", "open for writing"},
        "review and dry-run patch files under .slmcode/pending and .slmcode/dry-run",
    ),
    "tools/pending.py": ({"unlink"}, "removes an applied or rejected patch file under .slmcode/pending"),
    "nodes/slot.py": ({"atomic_write_text"}, "a slot's notes under .slmcode/scratch and .slmcode/notes"),
    "nodes/attempts.py": (
        {"shutil.copytree", "shutil.rmtree", "write_text"},
        "best-of-N copies and the applied marker under .slmcode/attempts",
    ),
    "nodes/winner.py": (
        {"unlink", "write_text"},
        "a winner's change that overlaps the user's kept as a patch under .slmcode/attempts; a file the winner "
        "deleted removed (Environment has no delete)",
    ),
}


def _writes(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        owner = func.value.id if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else ""
        if name in WRITE_CALLS or name in WRITE_MODULE_CALLS.get(owner, ()):
            found.append(f"{owner}.{name}" if owner in WRITE_MODULE_CALLS else name)
        elif name == "open":
            modes = [a for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            modes += [k.value for k in node.keywords if k.arg == "mode" and isinstance(k.value, ast.Constant)]
            if any(set(str(m.value)) & set("wax+") for m in modes):
                found.append("open for writing")
    return found


def test_tools_nodes_and_gates_write_the_workspace_only_through_the_environment() -> None:
    offenders = []
    for package in ("tools", "nodes", "gates"):
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            allowed = MAY_WRITE.get(relative, (set(), ""))[0]
            found = set(_writes(ast.parse(path.read_text(encoding="utf-8")))) - allowed
            if found:
                offenders.append(f"{relative}: {', '.join(sorted(found))}")
    assert offenders == [], "write the workspace through ctx.env.write (Environment.write) or list it with its reason"
