"""Running a whitelisted command line: no shell, an OS sandbox, an allowlisted environment, a deadline,
bounded output.

Each pipeline's programs are started directly (never through /bin/sh), each inside the kernel sandbox of
environment/ossandbox.py and in its own process group, so a timeout kills the whole group. The whitelist in front is
the friendly first layer (a model learns what it may run); the sandbox is the wall. Where no sandbox can run,
only a short list of read-only programs runs, and a refusal says why.
stdout and stderr of every step share one capture that keeps the head and the tail and counts what it cut, so
a command printing gigabytes costs a fixed amount of memory.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from slmcode.config import Settings
from slmcode.environment import ossandbox
from slmcode.environment.containment import Refusal, resolve_path, workspace_root
from slmcode.tools import prompts
from slmcode.tools.settings import ToolSettings
from slmcode.tools.whitelist import PlannedStep, Redirect, Whitelist, build_whitelist, plan

EXIT_NOT_FOUND = 127
EXIT_TIMEOUT = 124
READ_CHUNK = 65536
# What runs where no kernel sandbox can: programs that only read, and read only what they are named.
UNSANDBOXED_READ_ONLY = ("ls", "cat", "head", "tail", "wc", "grep", "pwd", "echo", "true", "false", "stat",
                         "basename", "dirname", "cut", "tr")


class CappedOutput:
    """Keeps the first and last `limit / 2` bytes of a stream and counts the rest."""

    def __init__(self, limit: int) -> None:
        self.half = max(1, limit // 2)
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def feed(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self.half - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        self.tail += chunk
        if len(self.tail) > self.half:
            del self.tail[: len(self.tail) - self.half]

    def text(self) -> str:
        cut = self.total - len(self.head) - len(self.tail)
        middle = prompts.OUTPUT_CUT.format(cut=cut) if cut > 0 else ""
        return (bytes(self.head).decode("utf-8", "replace") + middle + bytes(self.tail).decode("utf-8", "replace"))


@dataclass
class ShellResult:
    command: str
    exit_code: int | None  # None: nothing ran
    output: str
    timed_out: bool = False
    not_found: str | None = None  # the program that is not installed

    def render(self) -> str:
        if self.not_found is not None:
            return prompts.SHELL_NOT_FOUND.format(program=self.not_found)
        status = f"timed out, killed (exit {self.exit_code})" if self.timed_out else f"exit code {self.exit_code}"
        return f"$ {self.command}\n{self.output.rstrip()}\n[{status}]"


def _stream(workspace: Path, redirect: Redirect) -> IO[bytes] | int | None:
    if redirect.op == "<":
        return resolve_path(workspace, redirect.target).real.open("rb")
    return subprocess.DEVNULL if redirect.op in {">", ">>"} else None


def _start_pipeline(
    workspace: Path, step: PlannedStep, sink: int, jail: ossandbox.Jail, first_stdin: IO[bytes] | None = None
) -> tuple[list[subprocess.Popen[bytes]], str | None]:
    procs: list[subprocess.Popen[bytes]] = []
    previous: IO[bytes] | None = first_stdin  # the head of the pipeline reads it (closed here, like a pipe)
    for index, (argv, redirects) in enumerate(step.pipeline):
        last = index == len(step.pipeline) - 1
        stdin: IO[bytes] | int | None = previous if previous is not None else subprocess.DEVNULL
        stdout: IO[bytes] | int = sink if last else subprocess.PIPE
        stderr: IO[bytes] | int = sink
        for redirect in redirects:
            stream = _stream(workspace, redirect)
            if redirect.fd == 0:
                stdin = stream
            if redirect.fd in {1, -1} and stream is not None:
                stdout = stream
            if redirect.fd in {2, -1} and stream is not None:
                stderr = stream
        try:
            if jail.program(argv[0]) is None:
                return procs, argv[0]
            proc = subprocess.Popen(
                jail.argv(argv), cwd=workspace, env=jail.env, stdin=stdin, stdout=stdout, stderr=stderr,
                start_new_session=True,
            )
        except FileNotFoundError:
            return procs, argv[0]
        finally:
            # The parent's copies must close, or a writer never sees its reader exit (head after cat).
            for stream in {stdin, previous} - {None}:
                if hasattr(stream, "close"):
                    stream.close()
        procs.append(proc)
        previous = proc.stdout
    return procs, None


def _kill(procs: Sequence[subprocess.Popen[bytes]]) -> None:
    for proc in procs:
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):  # it exited between poll and kill
                os.killpg(proc.pid, 9)


def execute(workspace: Path, command: str, steps: Sequence[PlannedStep], timeout: float, cap: int,
            jail: ossandbox.Jail, on_start: Callable[[int], None] | None = None,
            stdin: bytes | None = None) -> ShellResult:
    """Run checked steps inside `jail`, honouring ; && || and the deadline; output is merged and capped.
    `on_start` hears each process group as it starts, so a run killed meanwhile can end the group when it
    resumes. `stdin` (a hook's event) is what each step's first program reads; otherwise it reads nothing."""
    feed = None
    if stdin is not None:  # a file, not a pipe: a program that never reads it cannot block the parent
        feed = tempfile.NamedTemporaryFile(prefix="slmcode-stdin-")  # noqa: SIM115 (closed in finally)
        feed.write(stdin)
        feed.flush()
    read_fd, write_fd = os.pipe()
    captured = CappedOutput(cap)

    def drain() -> None:
        with os.fdopen(read_fd, "rb") as reader:
            while chunk := reader.read1(READ_CHUNK):
                captured.feed(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    deadline = time.monotonic() + timeout
    exit_code, timed_out, missing = 0, False, None
    try:
        for step in steps:
            if (step.joiner == "&&" and exit_code != 0) or (step.joiner == "||" and exit_code == 0):
                continue
            first = open(feed.name, "rb") if feed is not None else None  # noqa: SIM115 (the pipeline closes it)
            procs, missing = _start_pipeline(workspace, step, write_fd, jail, first)
            for proc in procs if on_start else ():
                on_start(proc.pid)  # each process leads its own group (start_new_session)
            try:
                for proc in procs:
                    proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                _kill(procs)
                timed_out, exit_code = True, EXIT_TIMEOUT
                break
            finally:
                for proc in procs:
                    proc.wait()
            if missing is not None:
                exit_code = EXIT_NOT_FOUND
                break
            exit_code = procs[-1].returncode
    finally:
        os.close(write_fd)
        reader.join(timeout=5)
        if feed is not None:
            feed.close()
        removed = jail.undo_new_protected()
        notes = jail.after_command()
    output = captured.text()
    if removed:
        output += "\n" + prompts.SHELL_UNDID_PROTECTED.format(paths=", ".join(removed))
    for note in notes:
        output += "\n" + note
    return ShellResult(command, exit_code, output, timed_out=timed_out, not_found=missing)


def run_command(
    workspace: Path,
    command: str,
    settings: Settings | ToolSettings,
    allowed_commands: Sequence[str] = (),
    confirm: Callable[[str], bool] | None = None,
    on_start: Callable[[int], None] | None = None,
) -> ShellResult | str:
    """Check `command` against shell_permission and the whitelist, then run it; a refusal is an error text."""
    settings = ToolSettings.of(settings)
    command = (command or "").strip()
    if not command:
        return prompts.SHELL_EMPTY
    if settings.shell_permission == "deny":
        return prompts.SHELL_DENIED
    root = workspace_root(workspace)
    try:
        jail = ossandbox.prepare(root, writable=settings.permission == "auto", network=settings.sandbox_network,
                                 extra_read=settings.sandbox_read_paths, extra_env=settings.sandbox_env,
                                 limits=ossandbox.SandboxLimits.of(settings))
        whitelist: Whitelist = build_whitelist(allowed_commands, settings.shell_extra_commands)
    except ossandbox.SandboxUnavailable as exc:
        jail, whitelist = ossandbox.unsandboxed(root), Whitelist(tuple((n,) for n in UNSANDBOXED_READ_ONLY))
        unavailable = str(exc)
    else:
        unavailable = ""
    try:
        steps = plan(root, command, whitelist)
    except Refusal as exc:
        reason = str(exc).removeprefix("Error: ").rstrip(".")
        if unavailable:
            return prompts.SHELL_NO_SANDBOX.format(reason=reason, why=unavailable, allowed=whitelist.names())
        return prompts.SHELL_REFUSED.format(reason=reason, allowed=whitelist.names())
    if settings.shell_permission == "ask":
        if confirm is None:
            return prompts.SHELL_NO_APPROVER.format(command=command)
        if not confirm(command):
            return prompts.SHELL_DECLINED.format(command=command)
    return execute(root, command, steps, settings.shell_timeout_seconds, settings.tool_output_capture_bytes, jail,
                   on_start)
