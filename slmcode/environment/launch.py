"""The local Launcher: one command line's programs started inside one prepared bubblewrap jail (ossandbox.Jail),
each in its own process group. Where no jail can run here it is the read-only fallback: the same calls, but
only programs that merely read may start (the caller's whitelist narrows to them and says why; start() refuses
any other, so the rule holds whoever calls).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Mapping, Sequence
from typing import IO

from slmcode.environment.beneath import checked, open_beneath
from slmcode.environment.containment import Refusal
from slmcode.environment.ossandbox import Jail
from slmcode.environment.protocol import Stream

# What runs where no kernel sandbox can: programs that only read, and read only what they are named.
READ_ONLY_PROGRAMS = (
    "ls",
    "cat",
    "head",
    "tail",
    "wc",
    "grep",
    "pwd",
    "echo",
    "true",
    "false",
    "stat",
    "basename",
    "dirname",
    "cut",
    "tr",
)


class LocalLauncher:
    def __init__(self, jail: Jail, unavailable: str = "") -> None:
        self.jail = jail
        self.unavailable = unavailable
        self.only: tuple[str, ...] = READ_ONLY_PROGRAMS if unavailable else ()
        self.undone: list[str] = []
        self.notes: list[str] = []

    def which(self, program: str) -> str | None:
        return self.jail.program(program)

    def stdin_from(self, path: str) -> IO[bytes]:
        try:
            return os.fdopen(open_beneath(*checked(self.jail.workspace, path)), "rb")  # what was checked is opened
        except Refusal as exc:
            raise ValueError(str(exc)) from None

    def _allowed(self, argv: Sequence[str]) -> None:
        if self.unavailable and argv[0] not in self.only:
            raise PermissionError(f"{argv[0]}: no sandbox here ({self.unavailable}); only {', '.join(self.only)} run")

    def start(self, argv: Sequence[str], *, stdin: Stream, stdout: Stream, stderr: Stream) -> subprocess.Popen[bytes]:
        self._allowed(argv)
        return subprocess.Popen(
            self.jail.argv(argv),
            cwd=self.jail.workspace,
            env=self.jail.env,
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            start_new_session=True,
        )

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):  # it exited between poll and kill
                os.killpg(proc.pid, 9)

    def wrap(self, argv: Sequence[str], env: Mapping[str, str] | None = None) -> tuple[list[str], dict[str, str]]:
        self._allowed(argv)
        return self.jail.argv(argv), {**self.jail.env, **(env or {})}

    def finish(self) -> None:
        """After the command line: undo what would run code later, and the jail's other checks."""
        self.undone = self.jail.undo_new_protected()
        self.notes = self.jail.after_command()
