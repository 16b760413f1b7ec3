"""On the embedded server's dialect the worker's tool schemas (the grammar its answers are decoded with) admit
only the files its request shows, an old_str that matches once, and a plain new file name - seen in the
request the real graph sends (tests/fake_llm records it), and in the grammar llama-cpp-python builds from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from slmcode import api
from slmcode.nodes.prompts import SYSTEM
from slmcode.providers.tool_grammar import NEW_FILE_PATTERN, constrain_tools, shown_files
from tests.fake_llm import FakeLLM, Reply, system_text
from tests.graph.scenario import make_repo, python_on_path


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PATH", python_on_path())
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    return make_repo(tmp_path)


def first_worker_request(fake: FakeLLM, repo: Path, dialect: str) -> dict:
    for role in ("worker", "corrector", "tester"):
        fake.on(SYSTEM[role], Reply(content="Done."))
    api.run(
        "Add a divide operation to calc/ops.py with a test",
        repo,
        base_url=fake.url,
        model="smollm2:135m",
        request_retries=0,
        max_retries=0,
        server_dialect=dialect,
    )
    return next(r for r in fake.requests if SYSTEM["worker"] in system_text(r))


def test_the_first_step_is_reading_a_shown_file_and_nothing_else(fake_llm: FakeLLM, repo: Path) -> None:
    first = first_worker_request(fake_llm, repo, "llama-cpp-python")
    assert first["tool_choice"] == {"type": "function", "function": {"name": "ws_read"}}
    assert [t["function"]["name"] for t in first["tools"]] == ["ws_read"]
    assert first["tools"][0]["function"]["parameters"]["properties"]["path"]["enum"] == ["tests/test_ops.py"]


def test_a_second_run_of_the_same_task_in_one_process_is_led_again(fake_llm: FakeLLM, repo: Path) -> None:
    """The LangGraph server and the API run many tasks in one process: what one run read must not make the next
    run of the same task look half done (it would be told to edit a file it has not read)."""
    from tests.fake_llm import tool_call

    fake_llm.on(
        SYSTEM["worker"], Reply(tool_calls=[tool_call("ws_read", path="tests/test_ops.py")]), Reply(content="Done.")
    )
    first_worker_request(fake_llm, repo, "llama-cpp-python")
    fake_llm.requests.clear()
    again = first_worker_request(fake_llm, repo, "llama-cpp-python")
    assert again["tool_choice"] == {"type": "function", "function": {"name": "ws_read"}}
    assert again["tools"][0]["function"]["parameters"]["properties"]["path"]["enum"] == ["tests/test_ops.py"]


def test_other_servers_get_the_schemas_as_they_are(fake_llm: FakeLLM, repo: Path) -> None:
    first = first_worker_request(fake_llm, repo, "openai")
    tools = {t["function"]["name"]: t["function"]["parameters"]["properties"] for t in first["tools"]}
    assert {"ws_read", "ws_edit", "ws_write"} <= set(tools) and "tool_choice" not in first
    assert "enum" not in tools["ws_read"]["path"] and "enum" not in tools["ws_edit"]["old_str"]


def test_free_choice_still_names_only_shown_files_and_anchor_lines() -> None:
    pack = (
        "## Code\n\n### calc/ops.py (6 lines)\n1\tdef add(a, b):\n2\t    return a + b\n\n\n"
        "5\tdef sub(a, b):\n6\t    return a - b\n\n## Task\nAdd divide"
    )
    schema = {
        "type": "object",
        "properties": {"path": {"type": "string"}, "old_str": {"type": "string"}, "new_str": {"type": "string"}},
    }
    tools = [{"type": "function", "function": {"name": n, "parameters": schema}} for n in ("ws_edit", "ws_write")]
    edit, write = (
        t["function"]["parameters"]["properties"] for t in constrain_tools(tools, [{"role": "user", "content": pack}])
    )
    assert edit["path"]["enum"] == ["calc/ops.py"]
    assert edit["old_str"]["enum"] == ["def add(a, b):", "def sub(a, b):", "    return a - b"]
    assert write["path"]["pattern"] == NEW_FILE_PATTERN and "enum" not in write["path"]
    assert "enum" not in tools[0]["function"]["parameters"]["properties"]["path"]  # the input is untouched


def test_llama_cpp_builds_a_grammar_that_admits_only_those_values() -> None:
    llama_grammar = pytest.importorskip("llama_cpp.llama_grammar")
    schema = {
        "type": "object",
        "properties": {
            "path": {"type": "string", "enum": ["calc/ops.py", "tests/t.py"]},
            "name": {"type": "string", "pattern": NEW_FILE_PATTERN},
        },
        "required": ["path", "name"],
    }
    converter = llama_grammar.SchemaConverter(prop_order={}, allow_fetch=False, dotall=False, raw_pattern=False)
    converter.visit(schema, "")
    rules = dict(line.split(" ::= ", 1) for line in converter.format_grammar().splitlines())
    assert rules["path"] == '"\\"calc/ops.py\\"" | "\\"tests/t.py\\""'  # these two strings and nothing else
    assert "{" not in rules["name"] and rules["name"].startswith('"\\"" [A-Za-z0-9_]')  # no "{path}"
    # "\." in a literal is a GBNF llama.cpp cannot parse ("failed to parse grammar"): its server then died
    # mid-request, and the demo saw "model server unreachable". The pattern says [.] instead.
    assert '"\\."' not in rules["name"] and "[.]" in rules["name"]


def test_an_anchor_holding_a_quote_is_not_offered_for_the_server_cannot_parse_its_grammar() -> None:
    # The demo's calc/cli.py ends `OPERATIONS = {"add": ops.add, ...}`: llama-cpp-python wrote that line as a
    # grammar llama.cpp refused ("failed to parse grammar"), and its server died under the worker's request.
    pack = (
        '## Code\n\n### calc/cli.py (3 lines)\n1\tdef main():\n2\t    pass\n3\tOPS = {"add": add}\n\n'
        "### calc/a\\\\b.py (1 lines)\n1\tdef f():\n\n## Task\nAdd divide"
    )
    props = {"path": {"type": "string"}, "old_str": {"type": "string"}, "new_str": {"type": "string"}}
    tool = {"type": "function", "function": {"name": "ws_edit", "parameters": {"type": "object", "properties": props}}}
    (edit,) = constrain_tools([tool], [{"role": "user", "content": pack}])
    narrowed = edit["function"]["parameters"]["properties"]
    assert narrowed["path"]["enum"] == ["calc/cli.py"]  # the path with a backslash is left out too
    assert narrowed["old_str"]["enum"] == ["def main():"]
    values = [*narrowed["path"]["enum"], *narrowed["old_str"]["enum"]]
    assert not any('"' in v or "\\" in v for v in values)


def test_a_request_that_shows_no_file_constrains_nothing() -> None:
    assert shown_files(["## Task\nAdd divide"]) == {}


LAST_TEST = "    assert ops.multiply(4, 3) == 12"


def test_a_worker_on_the_embedded_server_is_led_read_then_edit_file_by_file(fake_llm: FakeLLM, repo: Path) -> None:
    from tests.fake_llm import tool_call

    fake_llm.on(
        SYSTEM["worker"],
        Reply(tool_calls=[tool_call("ws_read", path="tests/test_ops.py")]),
        Reply(
            tool_calls=[
                tool_call(
                    "ws_edit",
                    path="tests/test_ops.py",
                    old_str=LAST_TEST,
                    new_str=LAST_TEST + "\n\n\ndef test_divide() -> None:\n    assert ops.divide(6, 3) == 2",
                )
            ]
        ),
        Reply(tool_calls=[tool_call("ws_read", path="calc/ops.py")]),
        Reply(
            tool_calls=[
                tool_call(
                    "ws_edit",
                    path="calc/ops.py",
                    old_str="    return a * b",
                    new_str="    return a * b\n\n\ndef divide(a: float, b: float) -> float:\n"
                    '    """Return a divided by b."""\n    return a / b',
                )
            ]
        ),
        Reply(content="Added divide and its test."),
    )
    for role in ("corrector", "tester"):
        fake_llm.on(SYSTEM[role], Reply(content="Done."))
    result = api.run(
        "Add a divide operation to calc/ops.py with a test",
        repo,
        base_url=fake_llm.url,
        model="smollm2:135m",
        request_retries=0,
        max_retries=0,
        server_dialect="llama-cpp-python",
    )
    steps = []
    for request in (r for r in fake_llm.requests if SYSTEM["worker"] in system_text(r)):
        choice = request.get("tool_choice")
        named = choice["function"]["name"] if isinstance(choice, dict) else choice
        paths = request["tools"][0]["function"]["parameters"]["properties"]["path"].get("enum")
        steps.append((named, paths if isinstance(choice, dict) else None))
    assert steps[:4] == [
        ("ws_read", ["tests/test_ops.py"]),
        ("ws_edit", ["tests/test_ops.py"]),
        ("ws_read", ["calc/ops.py"]),
        ("ws_edit", ["calc/ops.py"]),
    ]
    code = next(t for t in result.tasks if t.kind == "code")
    assert code.files_changed == ["calc/ops.py", "tests/test_ops.py"]
    assert [v.status for v in code.verdicts if v.gate is None] == ["PASSED"], code.verdicts
