"""Every `slmcode` command starts without loading what it does not use: LangGraph and the LangChain/OpenAI clients
cost about half a second each in a fresh process, and only the commands that run the graph or call a model need
them (`slmcode map` took 1.4 s, 0.9 of it such imports). `slmcode --help` took 0.77 CPU-seconds before they and
the settings' pydantic models were loaded lazily (0.2 s after).

What is guarded is which modules a command loads, never a time."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from slmcode.store.trace import TraceStore

HEAVY = ("langgraph", "openai", "langchain_openai")
# What no start-up command (help pages, --version, status, config show) uses: the graph, the model clients, MCP,
# tree-sitter and numpy (via sqlite-utils) each cost a tenth of a second or more to import.
NOT_AT_START = (
    "langgraph",
    "langchain_core",
    "langchain_openai",
    "openai",
    "mcp",
    "langchain_mcp_adapters",
    "tree_sitter",
    "numpy",
    "sqlite_utils",
)
MARK = "LOADED "

# Runs the real entry point (slmcode.cli.main, as the console script does) with the given command lines, one
# after another in one process, then prints every module loaded. With `--every-help`, the command lines are
# each command's and group's `--help`, read from the command tree itself, so a new command is covered too.
PROBE = f"""
import json, sys
import typer.main
from slmcode import cli

def pages(command, path):
    yield [*path, "--help"]
    for name, sub in sorted(getattr(command, "commands", {{}}).items()):
        yield from pages(sub, [*path, name])

lines = json.loads(sys.argv[1])
if lines == "every-help":
    lines = list(pages(typer.main.get_command(cli.app), []))
for line in lines:
    sys.argv = ["slmcode", *line]
    try:
        cli.main()
    except SystemExit:
        pass
print({MARK!r} + json.dumps({{"lines": lines, "modules": sorted(sys.modules)}}))
"""


def loaded_after(statement: str) -> set[str]:
    probe = f"import sys; {statement}; print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r})))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return {name.split(".")[0] for name in out.split()}


def command_loads(workspace: Path, lines: list[list[str]] | str) -> tuple[list[list[str]], set[str]]:
    """The command lines that ran and every module (full dotted names) they loaded together."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(lines)], cwd=workspace, capture_output=True, text=True, timeout=120
    )
    reports = [line for line in done.stdout.splitlines() if line.startswith(MARK)]
    assert reports, done.stderr
    report = json.loads(reports[-1].removeprefix(MARK))
    return report["lines"], set(report["modules"])


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in NOT_AT_START)


def test_the_command_line_loads_no_graph_and_no_model_client() -> None:
    assert loaded_after("import slmcode.cli") == set()


def test_building_a_pack_loads_no_graph_and_no_model_client() -> None:
    """`slmcode pack` and `slmcode map` render what a model would see; they call no model and run no graph."""
    assert loaded_after("import slmcode.packs.builder, slmcode.repomap.build, slmcode.nodes.prompts") == set()


@pytest.mark.slow
@pytest.mark.parametrize("line", [["--help"], ["--version"]])
def test_help_and_version_load_neither_the_heavy_libraries_nor_the_settings(tmp_path: Path, line: list[str]) -> None:
    _, modules = command_loads(tmp_path, [line])
    assert heavy(modules) == []
    # The settings are pydantic models (0.1 s to build): only commands that read them load them.
    assert "slmcode.config" not in modules
    assert "slmcode.settings" not in modules


@pytest.mark.slow
def test_every_help_page_loads_no_heavy_library(tmp_path: Path) -> None:
    lines, modules = command_loads(tmp_path, "every-help")
    for page in (["run", "--help"], ["config", "show", "--help"], ["task", "edit", "--help"], ["eval", "--help"]):
        assert page in lines  # the walk reached the nested groups too
    assert heavy(modules) == []


@pytest.mark.slow
def test_status_of_a_workspace_with_runs_loads_no_heavy_library(tmp_path: Path) -> None:
    with TraceStore.for_workspace(tmp_path) as store:  # a recorded run: status opens the trace and reads it
        store.start_run("run-1", query="add a test", workspace=str(tmp_path), model="m", settings={})
    _, modules = command_loads(tmp_path, [["status"], ["status", "--json"]])
    assert "slmcode.store.trace" in modules  # the probe really read the trace
    assert heavy(modules) == []


@pytest.mark.slow
def test_config_show_loads_the_settings_and_nothing_heavy(tmp_path: Path) -> None:
    _, modules = command_loads(tmp_path, [["config", "show"], ["config", "show", "--json"]])
    assert "slmcode.config" in modules
    assert heavy(modules) == []


@pytest.mark.slow
def test_pack_in_a_git_repository_loads_no_langchain(repo: Path) -> None:
    """`slmcode pack` counts the tool schemas it fits from their plain dicts (tools/schemas.py): importing
    langchain_core to convert the tools cost 0.55 of its ~2 CPU-seconds, and it calls no model."""
    _, modules = command_loads(repo, [["pack", "--query", "add a divide function"]])
    assert {"slmcode.packs.builder", "slmcode.compact.toolfit"} <= modules  # the worker's pack was built and fitted
    # The repo map's tree-sitter and numpy it does need; nothing of LangChain, LangGraph or the model client.
    assert sorted({m.split(".")[0] for m in modules} & {"langchain_core", *HEAVY}) == []
