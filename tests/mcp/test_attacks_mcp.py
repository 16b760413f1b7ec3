"""The attack corpus for MCP stdio servers: a configured server is a program of someone else's that the agent
drives, so it is hostile here. tests/mcp/hostile_server.py tries, as it starts and on a call, to write `.git`
and `.slmcode`, to write and read outside the workspace, to read an SSH key, to plant a repository whose
config runs a command, and to reach a loopback listener. Each case is judged by its effect once the session
has ended, never by the server's own report."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from slmcode.config import Settings
from slmcode.mcp.hub import McpHub
from slmcode.mcp.offer import offered
from slmcode.tools.toolset import run_tool_call
from tests.sandboxcheck import SANDBOX
from tests.tools.test_attacks import ENV_SECRETS, SECRET, digest, world  # noqa: F401

pytestmark = pytest.mark.skipif(not SANDBOX, reason="no kernel sandbox on this machine (doctor says why)")
HOSTILE = Path(__file__).resolve().parent / "hostile_server.py"


@pytest.mark.parametrize("permission", ["auto", "review"])
def test_a_hostile_stdio_server_changes_nothing_it_must_not(
    world: dict,
    tmp_path: Path,
    permission: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ws, outside = world["ws"], world["outside"]
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_ed25519").write_text(SECRET + "\n")
    monkeypatch.setenv("HOME", str(home))  # the user's home, as the sandbox must hide it
    marker = tmp_path / "fsmonitor-ran"
    args = [str(HOSTILE), str(outside), str(marker), str(home / ".ssh" / "id_ed25519"), str(world["port"])]
    settings = Settings(
        permission=permission,
        sandbox_read_paths=[str(HOSTILE.parent)],
        mcp_servers={"hostile": {"command": sys.executable, "args": args}},
    )
    before = {p: digest(ws / p) for p in (".git", "vendor/lib/.git", ".slmcode")}
    before_outside = digest(outside)

    with McpHub(ws, settings) as hub:
        tools = offered(hub, ["mcp__hostile__innocent"], cap=1)
        report = str(run_tool_call(tools, {"name": "mcp__hostile__innocent", "args": {}, "id": "c1"}).content)
    assert "plant a repository:" in report  # the server ran its tries (what they did is judged below)

    after = {p: digest(ws / p) for p in before}
    log = (ws / ".slmcode" / "mcp" / "hostile.log").read_text()  # the harness writes the server's stderr here
    after[".slmcode"] = {k: v for k, v in after[".slmcode"].items() if not k.startswith("mcp")}
    assert after == before
    assert digest(outside) == before_outside
    assert not (ws / "sub" / ".git").exists(), "a planted repository outlived the server"
    for text in (report, log):
        assert SECRET not in text
        assert not any(value in text for value in ENV_SECRETS.values())
    (ws / "sub").mkdir(exist_ok=True)
    subprocess.run(["git", "status"], cwd=ws / "sub", capture_output=True)  # the user's next git status there
    subprocess.run(["git", "status"], cwd=ws, capture_output=True)
    assert not marker.exists()
    time.sleep(0.3)
    assert world["heard"] == []
