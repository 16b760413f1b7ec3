"""The MCP tools outside a run: both transports, the sandbox around a stdio server, the per-agent cap, the
schemas' cost in the budget, `slmcode mcp list`, and a URL off this machine refused in one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from slmcode.budget.compute import compute_budget
from slmcode.compact.toolfit import fit_tools
from slmcode.config import Settings
from slmcode.mcp.hub import McpHub
from slmcode.mcp.listing import schema_cost
from slmcode.mcp.offer import offered
from slmcode.tools.context import ToolContext
from slmcode.tools.toolset import make_tools, run_tool_call
from tests import inprocess
from tests.mcp.conftest import stdio_server, stdio_settings, write_config


def call(tools: list, tool: str, **args: object) -> tuple[str, str]:
    message = run_tool_call(tools, {"name": tool, "args": args, "id": "c1"})
    return str(message.content), message.status


def test_a_streamable_http_server_on_loopback_answers_calls(tmp_path: Path, http_server: str) -> None:
    settings = Settings(mcp_servers={"web": {"url": http_server}})
    with McpHub(tmp_path, settings) as hub:
        tools = offered(hub, ["mcp__web__add", "mcp__web__shout"], cap=4)
        assert [t.name for t in tools] == ["mcp__web__add", "mcp__web__shout"]
        assert call(tools, "mcp__web__shout", text="quiet") == ("QUIET", "success")
        assert call(tools, "mcp__web__add", a=2, b=3) == ("5", "success")


def test_a_stdio_server_runs_in_the_sandbox_with_only_the_variables_it_is_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MY_SERVICE_TOKEN", "s3cret")
    monkeypatch.setenv("UNLISTED_VALUE", "visible?")
    settings = Settings(
        mcp_servers={"calc": stdio_server(env={"MCP_TEST_VALUE": "given"})},
        sandbox_read_paths=stdio_settings()["sandbox_read_paths"],
    )
    with McpHub(tmp_path, settings) as hub:
        tools = offered(hub, ["mcp__calc__echo_env", "mcp__calc__bump"], cap=4)
        assert call(tools, "mcp__calc__echo_env", name="MCP_TEST_VALUE")[0] == "given"
        assert call(tools, "mcp__calc__echo_env", name="MY_SERVICE_TOKEN")[0] == "(unset)"
        assert call(tools, "mcp__calc__echo_env", name="UNLISTED_VALUE")[0] == "(unset)"
        assert call(tools, "mcp__calc__echo_env", name="HOME")[0] != os.environ.get("HOME")
        assert call(tools, "mcp__calc__bump") == ("1", "success")  # the workspace is writable in `auto`
    assert (tmp_path / "bumps.txt").read_text() == "bump\n"


def test_in_review_mode_a_stdio_server_cannot_write_the_workspace(tmp_path: Path) -> None:
    settings = Settings(permission="review", **stdio_settings())
    with McpHub(tmp_path, settings) as hub:
        content, status = call(offered(hub, ["mcp__calc__bump"], cap=1), "mcp__calc__bump")
    assert status == "error" and "Read-only file system" in content
    assert not (tmp_path / "bumps.txt").exists()


def test_the_cap_and_the_listed_order_choose_the_tools(tmp_path: Path) -> None:
    with McpHub(tmp_path, Settings(**stdio_settings())) as hub:
        assert [t.name for t in offered(hub, ["mcp__calc__*"], cap=2)] == ["mcp__calc__add", "mcp__calc__big"]
        assert [t.name for t in offered(hub, ["mcp__calc__shout", "mcp__calc__*"], cap=3)] == [
            "mcp__calc__shout",
            "mcp__calc__add",
            "mcp__calc__big",
        ]
        assert offered(hub, ["mcp__other__*"], cap=4) == []


def test_a_server_that_cannot_start_offers_nothing_and_is_reported_once(tmp_path: Path) -> None:
    settings = Settings(
        **stdio_settings(
            mcp_servers={
                "calc": stdio_server(),
                "gone": {"command": "no-such-mcp"},
                "down": {"url": "http://127.0.0.1:9/mcp"},
            }
        )
    )
    with McpHub(tmp_path, settings) as hub:
        tools = offered(hub, ["mcp__gone__*", "mcp__down__*", "mcp__calc__add"], cap=4)
        assert [t.name for t in tools] == ["mcp__calc__add"]  # the others' failure costs the run nothing
        failures = dict(hub.new_failures())
        assert failures["gone"] == "MCP server gone: program 'no-such-mcp' not found on the sandbox's PATH"
        assert failures["down"].startswith("MCP server down is unreachable: ConnectError")
        offered(hub, ["mcp__gone__*", "mcp__down__*"], cap=4)
        assert hub.new_failures() == []  # each reported once per run, not at every step


def test_mcp_schemas_are_paid_from_the_requests_room(tmp_path: Path) -> None:
    settings = Settings(**stdio_settings())
    budget = compute_budget(settings, "worker", "qwen2.5-coder:7b")
    own = make_tools(ToolContext(workspace=tmp_path, settings=settings))
    with McpHub(tmp_path, settings) as hub:
        extra = offered(hub, ["mcp__calc__add", "mcp__calc__shout"], cap=4)
        without, with_mcp = fit_tools(settings, budget, own), fit_tools(settings, budget, own + extra)
    cost = sum(schema_cost(t) for t in extra)
    assert with_mcp.names[-2:] == ["mcp__calc__add", "mcp__calc__shout"]
    added = with_mcp.schema_tokens - without.schema_tokens
    assert cost - 10 <= added <= cost + 10  # the list's separators aside, each schema is counted once
    assert without.room.room - with_mcp.room.room == added


def slmcode(*args: str) -> subprocess.CompletedProcess[str]:
    return inprocess.slmcode(*args)


def test_mcp_list_shows_servers_tools_and_costs_and_an_unreachable_server_in_one_line(tmp_path: Path) -> None:
    write_config(
        tmp_path, **stdio_settings(mcp_servers={"calc": stdio_server(), "gone": {"url": "http://127.0.0.1:9/mcp"}})
    )
    result = slmcode("mcp", "list", "-w", str(tmp_path))
    assert result.returncode == 2, result.stderr  # a server is down: a script must notice
    lines = result.stdout.splitlines()
    assert lines[0].startswith("calc  stdio: ")
    add = next(line for line in lines if "mcp__calc__add" in line)
    assert add.split()[1].isdigit() and "tokens" in add and "Add two integers." in add
    gone = lines.index(next(line for line in lines if line.startswith("gone")))
    assert lines[gone + 1].strip().startswith("unreachable: MCP server gone is unreachable")
    assert len(lines) == gone + 2 and "Traceback" not in result.stderr
    listed = json.loads(slmcode("mcp", "list", "-w", str(tmp_path), "--json").stdout)
    assert listed[0]["problem"] is None, listed
    costs = {t["name"]: t["tokens"] for t in listed[0]["tools"]}
    assert len(costs) == 7 and all(cost > 20 for cost in costs.values())  # every tool of the test server


def test_a_url_off_this_machine_is_refused_in_one_line(tmp_path: Path) -> None:
    write_config(tmp_path, mcp_servers={"web": {"url": "http://192.0.2.7:8000/mcp"}})
    result = slmcode("mcp", "list", "-w", str(tmp_path))
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "Traceback" not in result.stderr
    assert "mcp_servers.web.url" in result.stderr and "on this machine" in result.stderr


def test_a_server_that_prints_a_banner_on_stdout_puts_no_traceback_on_the_terminal(tmp_path: Path) -> None:
    # Before: the mcp library's 'Failed to parse JSONRPC message from server' and its traceback reached stderr.
    banner = "print('Welcome to my MCP server v1.0')"
    write_config(tmp_path, mcp_servers={"noisy": {"command": sys.executable, "args": ["-c", banner]}})
    result = slmcode("mcp", "list", "-w", str(tmp_path))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "Failed to parse" not in result.stderr
    assert "unreachable: MCP server noisy is unreachable" in result.stdout
    assert "Failed to parse JSONRPC message from server" in (tmp_path / ".slmcode/mcp/noisy.log").read_text()
