"""On the embedded server's dialect the worker's tool schemas (the grammar its answers are decoded with) admit
only the files its request shows, an old_str that matches once, and a plain new file name - seen in the
request the real graph sends (tests/fake_llm records it), and in the grammar llama-cpp-python builds from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from slmcode import api
from slmcode.nodes.prompts import SYSTEM
from slmcode.providers.tool_grammar import NEW_FILE_PATTERN, shown_files
from tests.fake_llm import FakeLLM, Reply, system_text
from tests.graph.scenario import make_repo, python_on_path


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PATH", python_on_path())
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    return make_repo(tmp_path)


def first_worker_tools(fake: FakeLLM, repo: Path, dialect: str) -> dict[str, dict]:
    for role in ("worker", "corrector", "tester"):
        fake.on(SYSTEM[role], Reply(content="Done."))
    api.run("Add a divide operation to calc/ops.py with a test", repo, base_url=fake.url, model="smollm2:135m",
            request_retries=0, max_retries=0, server_dialect=dialect)
    first = next(r for r in fake.requests if SYSTEM["worker"] in system_text(r))
    return {t["function"]["name"]: t["function"]["parameters"]["properties"] for t in first["tools"]}


def test_the_worker_can_only_name_the_files_it_was_shown(fake_llm: FakeLLM, repo: Path) -> None:
    tools = first_worker_tools(fake_llm, repo, "llama-cpp-python")
    assert tools["ws_read"]["path"]["enum"] == ["calc/ops.py", "tests/test_ops.py"]
    assert tools["ws_edit"]["path"]["enum"] == ["calc/ops.py", "tests/test_ops.py"]
    lines = tools["ws_edit"]["old_str"]["enum"]
    assert "    return a * b" in lines and "def multiply(a: float, b: float) -> float:" in lines
    assert "    \"\"\"Return a minus b.\"\"\"" not in lines  # not an anchor: the enum stays short
    assert "" not in lines and "{old_str}" not in lines
    assert tools["ws_write"]["path"]["pattern"] == NEW_FILE_PATTERN


def test_other_servers_get_the_schemas_as_they_are(fake_llm: FakeLLM, repo: Path) -> None:
    tools = first_worker_tools(fake_llm, repo, "openai")
    assert "enum" not in tools["ws_read"]["path"] and "enum" not in tools["ws_edit"]["old_str"]


def test_llama_cpp_builds_a_grammar_that_admits_only_those_values() -> None:
    llama_grammar = pytest.importorskip("llama_cpp.llama_grammar")
    schema = {"type": "object", "properties": {"path": {"type": "string", "enum": ["calc/ops.py", "tests/t.py"]},
                                               "name": {"type": "string", "pattern": NEW_FILE_PATTERN}},
              "required": ["path", "name"]}
    converter = llama_grammar.SchemaConverter(prop_order={}, allow_fetch=False, dotall=False, raw_pattern=False)
    converter.visit(schema, "")
    rules = dict(line.split(" ::= ", 1) for line in converter.format_grammar().splitlines())
    assert rules["path"] == '"\\"calc/ops.py\\"" | "\\"tests/t.py\\""'  # these two strings and nothing else
    assert "{" not in rules["name"] and rules["name"].startswith('"\\"" [A-Za-z0-9_]')  # no "{path}"


def test_a_request_that_shows_no_file_constrains_nothing() -> None:
    assert shown_files(["## Task\nAdd divide"]) == {}
