"""Running a whitelisted command line: no shell, an OS sandbox, an allowlisted environment, a deadline,
bounded output.

Each pipeline's programs are started directly (never through /bin/sh) by the run's Environment (its command()
Launcher: locally the kernel sandbox of environment/ossandbox.py), each in its own process group, so a timeout
kills the whole group. The whitelist in front is the friendly first layer (a model learns what it may run); the
environment is the wall. Where it has none (Launcher.unavailable), only its read-only programs run, and a
refusal says why.
stdout and stderr of every step share one capture that keeps the head and the tail and counts what it cut, so
a command printing gigabytes costs a fixed amount of memory.
"""

from __future__ import annotations

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
from slmcode.environment import Environment, LocalEnvironment
from slmcode.environment.containment import Refusal, workspace_root
from slmcode.environment.protocol import Launcher
from slmcode.tools import prompts
from slmcode.tools.settings import ToolSettings
from slmcode.tools.whitelist import PlannedStep, Redirect, Whitelist, build_whitelist, plan

EXIT_NOT_FOUND = 127
EXIT_TIMEOUT = 124
READ_CHUNK = 65536


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
        return bytes(self.head).decode("utf-8", "replace") + middle + bytes(self.tail).decode("utf-8", "replace")


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


def _stream(launcher: Launcher, redirect: Redirect) -> IO[bytes] | int | None:
    if redirect.op == "<":
        return launcher.stdin_from(redirect.target)
    return subprocess.DEVNULL if redirect.op in {">", ">>"} else None


def _start_pipeline(
    launcher: Launcher, step: PlannedStep, sink: int, first_stdin: IO[bytes] | None = None
) -> tuple[list[subprocess.Popen[bytes]], str | None]:
    procs: list[subprocess.Popen[bytes]] = []
    previous: IO[bytes] | None = first_stdin  # the head of the pipeline reads it (closed here, like a pipe)
    for index, (argv, redirects) in enumerate(step.pipeline):
        last = index == len(step.pipeline) - 1
        stdin: IO[bytes] | int | None = previous if previous is not None else subprocess.DEVNULL
        stdout: IO[bytes] | int = sink if last else subprocess.PIPE
        stderr: IO[bytes] | int = sink
        for redirect in redirects:
            stream = _stream(launcher, redirect)
            if redirect.fd == 0:
                stdin = stream
            if redirect.fd in {1, -1} and stream is not None:
                stdout = stream
            if redirect.fd in {2, -1} and stream is not None:
                stderr = stream
        try:
            if launcher.which(argv[0]) is None:
                return procs, argv[0]
            proc = launcher.start(argv, stdin=stdin, stdout=stdout, stderr=stderr)
        except FileNotFoundError:
            return procs, argv[0]
        finally:
            # The parent's copies must close, or a writer never sees its reader exit (head after cat).
            for stream in {stdin, previous} - {None}:
                if (close := getattr(stream, "close", None)) is not None:
                    close()
        procs.append(proc)
        previous = proc.stdout
    return procs, None


def execute(
    launcher: Launcher,
    command: str,
    steps: Sequence[PlannedStep],
    timeout: float,
    cap: int,
    on_start: Callable[[int], None] | None = None,
    stdin: bytes | None = None,
) -> ShellResult:
    """Run checked steps through `launcher` (inside its `with` block), honouring ; && || and the deadline; output
    is merged and capped. with_after() adds what the environment undid once the block has ended.
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
            procs, missing = _start_pipeline(launcher, step, write_fd, first)
            for proc in procs if on_start is not None else ():
                on_start(proc.pid)  # type: ignore[misc]  # each process leads its own group (start_new_session)
            try:
                for proc in procs:
                    proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                for proc in procs:
                    launcher.kill(proc)
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
    return ShellResult(command, exit_code, captured.text(), timed_out=timed_out, not_found=missing)


def with_after(result: ShellResult, launcher: Launcher) -> ShellResult:
    """The result with what the environment did once the command line ended (its `with` block closed): a
    `.git`, `.slmcode` or git-shaped folder it removed, set-id bits cleared, the scratch folder emptied."""
    output = result.output
    if launcher.undone:
        output += "\n" + prompts.SHELL_UNDID_PROTECTED.format(paths=", ".join(launcher.undone))
    for note in launcher.notes:
        output += "\n" + note
    result.output = output
    return result


def run_command(
    workspace: Path,
    command: str,
    settings: Settings | ToolSettings,
    allowed_commands: Sequence[str] = (),
    confirm: Callable[[str], bool] | None = None,
    on_start: Callable[[int], None] | None = None,
    environment: Environment | None = None,
) -> ShellResult | str:
    """Check `command` against shell_permission and the whitelist, then run it through `environment` (the run's;
    None: the local one these settings describe); a refusal is an error text."""
    settings = ToolSettings.of(settings)
    command = (command or "").strip()
    if not command:
        return prompts.SHELL_EMPTY
    if settings.shell_permission == "deny":
        return prompts.SHELL_DENIED
    root = workspace_root(workspace)
    environment = environment or LocalEnvironment.from_settings(root, settings)
    with environment.command() as launcher:
        if launcher.unavailable:
            whitelist = Whitelist(tuple((n,) for n in launcher.only))
        else:
            whitelist = build_whitelist(allowed_commands, settings.shell_extra_commands)
        try:
            steps = plan(root, command, whitelist)
        except Refusal as exc:
            reason = str(exc).removeprefix("Error: ").rstrip(".")
            if launcher.unavailable:
                return prompts.SHELL_NO_SANDBOX.format(
                    reason=reason, why=launcher.unavailable, allowed=whitelist.names()
                )
            return prompts.SHELL_REFUSED.format(reason=reason, allowed=whitelist.names())
        if settings.shell_permission == "ask":
            if confirm is None:
                return prompts.SHELL_NO_APPROVER.format(command=command)
            if not confirm(command):
                return prompts.SHELL_DECLINED.format(command=command)
        result = execute(
            launcher, command, steps, settings.shell_timeout_seconds, settings.tool_output_capture_bytes, on_start
        )
    return with_after(result, launcher)
