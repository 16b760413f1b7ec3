"""The seam proven by a second Environment: a recording one that runs every program through LocalEnvironment and
notes each argv and file call. ws_read, ws_list, ws_search, ws_shell, verify, a gate, a hook, an MCP stdio server
and the solo reviewer's git all reach it when it is the run's environment, so none of them can read a file or
start a program around it. Also the read-only fallback (no bwrap) as the same protocol, and doctor's module check
inside the wall."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import pytest
import yaml
from langgraph.runtime import Runtime

from slmcode import hooks, readiness
from slmcode.blocks.discovery import BUILTIN_DIR
from slmcode.blocks.schema import Hooks
from slmcode.config import McpServer, Settings, load_settings
from slmcode.environment import Completed, Environment, LocalEnvironment, ossandbox
from slmcode.environment.launch import READ_ONLY_PROGRAMS
from slmcode.environment.protocol import Entry, EntryKind, Launcher, Stream
from slmcode.gates.command import run_gate_command
from slmcode.mcp.servers import open_session
from slmcode.nodes.solo import _changed_files
from slmcode.run_context import RunContext
from slmcode.state import Criterion
from slmcode.tools.context import ToolContext
from slmcode.tools.criteria import run_criteria
from slmcode.tools.shell import ShellResult, run_command
from slmcode.tools.toolset import make_tools
from slmcode.trust import trust_workspace
from tests.sandboxcheck import needs_sandbox

MCP_SERVER = Path(__file__).resolve().parents[1] / "mcp" / "server.py"

pytestmark = needs_sandbox


class RecordingLauncher:
    """Starts through the local launcher and notes what it started."""

    def __init__(self, inner: Launcher, seen: list[tuple[str, ...]]) -> None:
        self.inner, self.seen = inner, seen

    def __getattr__(self, name: str) -> object:  # unavailable, only, undone, notes
        return getattr(self.inner, name)

    def which(self, program: str) -> str | None:
        return self.inner.which(program)

    def stdin_from(self, path: str) -> IO[bytes]:
        return self.inner.stdin_from(path)

    def start(self, argv: Sequence[str], *, stdin: Stream, stdout: Stream, stderr: Stream) -> subprocess.Popen[bytes]:
        self.seen.append(("start", *argv))
        return self.inner.start(argv, stdin=stdin, stdout=stdout, stderr=stderr)

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        self.inner.kill(proc)

    def wrap(self, argv: Sequence[str], env: Mapping[str, str] | None = None) -> tuple[list[str], dict[str, str]]:
        self.seen.append(("wrap", *argv))
        return self.inner.wrap(argv, env)


class RecordingEnvironment:
    """A second implementation of the protocol: LocalEnvironment underneath, every file, program and git call
    noted."""

    name = "recording"

    def __init__(self, inner: LocalEnvironment) -> None:
        self.inner = inner
        self.seen: list[tuple[str, ...]] = []

    def read(self, path: str, offset: int = 0, size: int | None = None) -> bytes:
        self.seen.append(("read", path))
        return self.inner.read(path, offset, size)

    def stat(self, path: str) -> Entry:
        self.seen.append(("stat", path))
        return self.inner.stat(path)

    def listdir(self, path: str) -> list[tuple[str, EntryKind]]:
        self.seen.append(("listdir", path))
        return self.inner.listdir(path)

    def write(self, path: str, data: bytes) -> None:
        self.seen.append(("write", path))
        self.inner.write(path, data)

    def walk(self, prune: frozenset[str] = frozenset()) -> list[str]:
        return self.inner.walk(prune)

    def search(self, pattern: str, paths: Sequence[str] | None = None) -> list[tuple[str, int, str]]:
        return self.inner.search(pattern, paths)

    def run(self, argv: Sequence[str], *, timeout: float, input: bytes | None = None) -> Completed:
        self.seen.append(("run", *argv))
        return self.inner.run(argv, timeout=timeout, input=input)

    def git(
        self,
        *args: str,
        write: bool | None = None,
        input: bytes | None = None,
        env: Mapping[str, str] | None = None,
        timeout: float | None = None,
    ) -> Completed:
        self.seen.append(("git", *args))
        return self.inner.git(*args, write=write, input=input, env=env, timeout=timeout)

    @contextmanager
    def command(self) -> Iterator[Launcher]:
        with self.inner.command() as launcher:
            yield RecordingLauncher(launcher, self.seen)

    def temp_path(self, name: str) -> str:
        return self.inner.temp_path(name)

    def started(self) -> list[str]:
        """The program of each start or wrap, in order."""
        return [entry[1] for entry in self.seen if entry[0] in ("start", "wrap")]


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    return root


def recording(ws: Path, settings: Settings) -> RecordingEnvironment:
    return RecordingEnvironment(LocalEnvironment.from_settings(ws, settings))


def test_the_recording_environment_is_an_environment(ws: Path) -> None:
    assert isinstance(recording(ws, Settings()), Environment)


def test_the_file_tools_read_and_list_through_the_run_environment(ws: Path) -> None:
    (ws / "pkg").mkdir()
    (ws / "pkg" / "mod.py").write_text("def sub(a, b):\n    return a - b\n")
    env = recording(ws, Settings())
    ctx = ToolContext(workspace=ws, settings=Settings(), environment=env)
    tools = {tool.name: tool for tool in make_tools(ctx)}
    assert "2\t    return a + b" in tools["ws_read"].invoke({"path": "calc.py"})
    assert env.seen == [("stat", "calc.py"), ("read", "calc.py")]
    env.seen.clear()
    assert tools["ws_list"].invoke({"path": "."}).splitlines() == ["calc.py", "pkg/"]
    assert ("listdir", ".") in env.seen and ("read", ".gitignore") in env.seen
    env.seen.clear()
    assert tools["ws_search"].invoke({"pattern": "return a"}).splitlines() == [
        "calc.py:2: return a + b",
        "pkg/mod.py:2: return a - b",
    ]
    assert [e for e in env.seen if e[0] in ("listdir", "read")] == [
        ("read", ".gitignore"),
        ("listdir", "."),
        ("read", "calc.py"),
        ("listdir", "pkg"),
        ("read", "pkg/mod.py"),
    ]


def test_a_big_file_is_read_a_chunk_at_a_time_through_the_run_environment(ws: Path) -> None:
    (ws / "big.txt").write_text("".join(f"line {n}\n" for n in range(1, 40001)))
    env = recording(ws, Settings())
    ctx = ToolContext(workspace=ws, settings=Settings(max_read_bytes=1000), environment=env)
    read = next(t for t in make_tools(ctx) if t.name == "ws_read")
    out = read.invoke({"path": "big.txt", "offset": 39999, "limit": 2})
    assert "39999\tline 39999" in out and "40000\tline 40000" in out
    assert [e for e in env.seen if e[0] == "read"] and all(e == ("read", "big.txt") for e in env.seen[1:])


def test_ws_shell_starts_each_program_of_a_pipeline_through_the_run_environment(ws: Path) -> None:
    env = recording(ws, Settings())
    ctx = ToolContext(workspace=ws, settings=Settings(), environment=env)
    shell = next(t for t in make_tools(ctx) if t.name == "ws_shell")
    out = shell.invoke({"command": "cat calc.py | grep return"})
    assert "return a + b" in out and "exit code 0" in out
    assert env.started() == ["cat", "grep"]


def test_verify_and_a_gate_run_through_the_given_environment(ws: Path) -> None:
    env = recording(ws, Settings())
    check = f"{sys.executable} -c 'import calc; assert calc.add(1, 2) == 3'"
    verdicts = run_criteria(
        [Criterion(text="adds", verify=check)],
        workspace=ws,
        settings=Settings(),
        allowed_commands=[check],
        environment=env,
    )
    assert [v.status for v in verdicts] == ["PASSED"]
    gate = run_gate_command("smoke", ws, Settings(), f"{sys.executable} -m py_compile calc.py", environment=env)
    assert gate.status == "PASSED"
    assert env.started() == [sys.executable, sys.executable]


def test_a_hook_runs_through_the_given_environment_and_reads_its_event(ws: Path) -> None:
    env = recording(ws, Settings())
    results = hooks.fire(
        ws,
        Settings(),
        Hooks(on_task_done=["tee event.json"], timeout_seconds=20),
        "on_task_done",
        {"task_id": "r1t1"},
        lambda result: None,
        env,
    )
    assert [r.ok for r in results] == [True]
    assert '"task_id": "r1t1"' in (ws / "event.json").read_text()
    assert env.started() == ["tee"]


def test_the_run_end_hooks_run_through_the_runs_environment(ws: Path) -> None:
    pipeline = yaml.safe_load((BUILTIN_DIR / "pipeline-default.yaml").read_text())
    pipeline["hooks"] = {"on_run_end": ["tee ended.json"], "timeout_seconds": 20}
    (ws / ".slmcode" / "blocks").mkdir(parents=True)
    (ws / ".slmcode" / "blocks" / "pipeline.yaml").write_text(yaml.safe_dump(pipeline), encoding="utf-8")
    trust_workspace(ws)  # a workspace's own hooks run only once its user trusts it
    env = recording(ws, Settings())
    recorded: list[str] = []
    hooks.at_run_end(ws, load_settings(ws).settings, "run-1", {"status": "done"}, lambda k, d: recorded.append(k), env)
    assert recorded == ["hook"] and '"status": "done"' in (ws / "ended.json").read_text()
    assert env.started() == ["tee"]


def test_a_stdio_mcp_server_is_started_through_the_given_environment(ws: Path) -> None:
    settings = Settings(sandbox_read_paths=[str(MCP_SERVER.parent)])
    env = recording(ws, settings)
    spec = McpServer(command=sys.executable, args=[str(MCP_SERVER)])

    async def tools() -> list[str]:
        async with open_session(ws, "calc", spec, settings, 60, env) as session:
            return [tool.name for tool in (await session.list_tools()).tools]

    assert asyncio.run(tools())
    assert env.seen[0] == ("wrap", sys.executable, str(MCP_SERVER))


def test_the_solo_reviewer_reads_changed_files_through_the_environments_git(ws: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    odd = ["a -> b.py", "with space.py", "new\nline.py"]
    for name in odd:
        (ws / name).write_text("x = 1\n")
    env = recording(ws, Settings())
    runtime = Runtime(context=RunContext(workspace=str(ws), settings=Settings(), environment=env))
    assert _changed_files(runtime) == sorted(["calc.py", *odd])  # a porcelain line split kept none of them whole
    assert [entry[:2] for entry in env.seen] == [("git", "status")]


@pytest.fixture
def no_bwrap(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(ossandbox.BWRAP_ENV, "/nonexistent/bwrap")
    ossandbox.bwrap_binary.cache_clear()
    yield
    monkeypatch.delenv(ossandbox.BWRAP_ENV)
    ossandbox.bwrap_binary.cache_clear()


def test_without_a_sandbox_the_environment_starts_only_read_only_programs(ws: Path, no_bwrap: None) -> None:
    env = LocalEnvironment(ws)
    with env.command() as launcher:
        assert launcher.unavailable and launcher.only == READ_ONLY_PROGRAMS
        with pytest.raises(PermissionError):
            launcher.start(["sh", "-c", "echo x > written.txt"], stdin=None, stdout=None, stderr=None)
    assert not (ws / "written.txt").exists()
    listed = run_command(ws, "cat calc.py", Settings(), environment=env)
    assert isinstance(listed, ShellResult) and "return a + b" in listed.output
    refused = run_command(
        ws,
        f'{sys.executable} -c \'open("w.txt", "w")\'',
        Settings(),
        allowed_commands=[sys.executable],
        environment=env,
    )
    assert isinstance(refused, str) and "sandbox" in refused and not (ws / "w.txt").exists()


def test_doctor_asks_for_a_module_inside_the_wall(ws: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `python -m pkg.sub`: finding pkg.sub imports pkg, the workspace's own code; it must not run on the host.
    monkeypatch.chdir(ws)  # `slmcode doctor` in the repository
    (ws / "pkg").mkdir()
    (ws / "pkg" / "__init__.py").write_text(f"open({str(tmp_path / 'ran_on_host')!r}, 'w').write('x')\n")
    (ws / "pkg" / "sub.py").write_text("")
    check = readiness.program("test", "python3 -m pkg.sub", ws)
    assert not (tmp_path / "ran_on_host").exists()
    assert check.ok  # found: its package ran, inside the wall (where the marker's folder is a throwaway tmpfs)
    assert readiness.program("test", "python3 -m json.tool", ws).ok
