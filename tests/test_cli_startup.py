"""Every `slmcode` command starts without loading what it does not use: LangGraph and the LangChain/OpenAI clients
cost about half a second each in a fresh process, and only the commands that run the graph or call a model need
them (`slmcode map` took 1.4 s, 0.9 of it such imports)."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("langgraph", "openai", "langchain_openai")


def loaded_after(statement: str) -> set[str]:
    probe = f"import sys; {statement}; print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r})))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return {name.split(".")[0] for name in out.split()}


def test_the_command_line_loads_no_graph_and_no_model_client() -> None:
    assert loaded_after("import slmcode.cli") == set()


def test_building_a_pack_loads_no_graph_and_no_model_client() -> None:
    """`slmcode pack` and `slmcode map` render what a model would see; they call no model and run no graph."""
    assert loaded_after("import slmcode.packs.builder, slmcode.packs.repomap.build, slmcode.nodes.prompts") == set()
