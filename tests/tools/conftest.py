"""A workspace with traps around it: a secret folder outside, symlinks pointing out, a FIFO, a socket,
a binary file; and helpers to call the worker's tools the way the graph does."""

from __future__ import annotations

import contextlib
import os
import socket
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from langchain_core.messages import ToolMessage

from slmcode.config import Settings
from slmcode.tools.context import ToolContext
from slmcode.tools.toolset import make_tools, run_tool_call

SECRET = "TOP-SECRET-VALUE-42"
PYTHON = sys.executable
ALLOWED = (f"{PYTHON} -c",)  # the language pack's commands, in a test: this interpreter

CallTool = Callable[..., ToolMessage]


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.txt").write_text(SECRET + "\n")
    return folder


@pytest.fixture
def workspace(tmp_path: Path, outside: Path) -> Iterator[Path]:
    root = tmp_path / "ws"
    (root / "src").mkdir(parents=True)
    (root / "src" / "calc.py").write_text("def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n")
    (root / "README.md").write_text("# demo\n")
    (root / "image.bin").write_bytes(bytes(range(256)) * 8)
    (root / "link_out").symlink_to(outside, target_is_directory=True)
    (root / "file_link").symlink_to(outside / "secret.txt")
    (root / "proc_link").symlink_to("/proc/self/environ")
    (root / "dangling").symlink_to(outside / "not-yet.txt")
    (root / ".git" / "hooks").mkdir(parents=True)
    os.mkfifo(root / "pipe")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    with contextlib.chdir(root):  # a relative name dodges the 108-byte limit on socket paths
        server.bind("sock")
    yield root
    server.close()


@pytest.fixture
def make_ctx(workspace: Path) -> Callable[..., ToolContext]:
    def make(**settings: object) -> ToolContext:
        values: dict[str, object] = {"shell_timeout_seconds": 10, **settings}
        return ToolContext(workspace=workspace, settings=Settings(**values), allowed_commands=ALLOWED)

    return make


@pytest.fixture
def ctx(make_ctx: Callable[..., ToolContext]) -> ToolContext:
    return make_ctx()


@pytest.fixture
def call(ctx: ToolContext) -> CallTool:
    """Call one tool by name with keyword arguments, through run_tool_call."""
    tools = make_tools(ctx)

    def run(name: str, **args: object) -> ToolMessage:
        return run_tool_call(tools, {"name": name, "args": args, "id": "call_1"})

    return run
