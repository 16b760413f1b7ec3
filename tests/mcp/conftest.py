"""Fixtures for the MCP and hooks tests: the calculator repository with an MCP server configured, and the
test server over streamable HTTP on a free loopback port."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from slmcode.trust import trust_workspace

SERVER = Path(__file__).resolve().parent / "server.py"


def write_config(repo: Path, **settings: object) -> None:
    path = repo / ".slmcode" / "config.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(yaml.safe_dump(settings), encoding="utf-8")
    trust_workspace(repo)  # MCP servers and read paths from a workspace apply once its user trusts it


def stdio_server(**extra: object) -> dict[str, object]:
    """The test server as a stdio entry of mcp_servers."""
    return {"command": sys.executable, "args": [str(SERVER)], **extra}


def stdio_settings(**extra: object) -> dict[str, object]:
    """Settings that start the test server over stdio: the sandbox must be able to read its file."""
    return {"mcp_servers": {"calc": stdio_server()}, "sandbox_read_paths": [str(SERVER.parent)]} | extra


def write_agent(repo: Path, ident: str, tools: list[str], **fields: object) -> None:
    block = {"api_version": "blocks/v1", "kind": "agent", "id": ident, "role": ident, "tools": tools, **fields}
    folder = repo / ".slmcode" / "blocks"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"agent-{ident}.yaml").write_text(yaml.safe_dump(block), encoding="utf-8")
    trust_workspace(repo)  # an agent reaching MCP tools needs the user's trust too


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def http_server() -> Iterator[str]:
    """The test server over streamable HTTP on loopback; its URL."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, str(SERVER), "--http", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("the test MCP server did not listen within 20 s")
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
