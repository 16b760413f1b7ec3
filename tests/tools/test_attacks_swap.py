"""Between the check and the open: another task's jailed command swaps a folder for a symlink to a host folder,
or a file for a FIFO, while the tools write and read. Judged by effect: no write lands in the outside folder,
no read returns the outside file's bytes, and a FIFO swapped in ends the read with an error for the model
instead of blocking it. The swapper is a separate process, as a jailed command is."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from slmcode.environment import LocalEnvironment
from slmcode.tools.context import ToolContext
from tests.tools.conftest import SECRET, CallTool

ROUNDS = 1000

# Exchanges `name` and `swap_in` atomically (renameat2 RENAME_EXCHANGE), as fast as the kernel allows, until
# killed: `name` is always there, one moment what it was, the next the thing swapped in.
SWAPPER = """
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, RENAME_EXCHANGE = -100, 2
a, b = (p.encode() for p in sys.argv[1:])
while True:
    if libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0:
        raise OSError(ctypes.get_errno(), "renameat2")
"""


@contextmanager
def swapping(name: Path, swap_in: Path) -> Iterator[None]:
    kind = name.is_dir()
    proc = subprocess.Popen([sys.executable, "-c", SWAPPER, str(name), str(swap_in)])
    try:
        yield
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == -9  # it swapped until killed
    if name.is_symlink() or name.is_dir() != kind or name.is_fifo():  # killed mid-swap: put the original back
        proc = subprocess.Popen(
            [sys.executable, "-c", SWAPPER.replace("while True:", "if True:"), str(name), str(swap_in)]
        )
        proc.wait()


def test_a_folder_swapped_for_a_link_out_never_takes_a_write_or_gives_a_read(workspace: Path, outside: Path) -> None:
    env = LocalEnvironment(workspace)
    (workspace / "dir").mkdir()
    (workspace / "dir" / "secret.txt").write_text("inside\n")
    (workspace / "swap").symlink_to(outside, target_is_directory=True)
    leaked = 0
    with swapping(workspace / "dir", workspace / "swap"):
        for n in range(ROUNDS):
            with suppress(ValueError, OSError):  # refused: the folder was a link when checked or opened
                env.write(f"dir/w{n}.txt", b"x")
            with suppress(ValueError, OSError):
                leaked += SECRET.encode() in env.read("dir/secret.txt")
    written = sorted(p.name for p in outside.iterdir() if p.name != "secret.txt")
    print(f"\nTOCTOU: {len(written)} of {ROUNDS} writes outside, {leaked} of {ROUNDS} reads of the outside file")
    assert written == [] and leaked == 0


def test_a_fifo_swapped_in_for_a_file_gives_the_model_an_error_not_a_hang(
    workspace: Path, ctx: ToolContext, call: CallTool
) -> None:
    (workspace / "notes.txt").write_text("plain text\n")
    os.mkfifo(workspace / "fifo")
    answers: list[str] = []

    def read_many() -> None:
        for _ in range(ROUNDS):
            answers.append(str(call("ws_read", path="notes.txt").content))

    with swapping(workspace / "notes.txt", workspace / "fifo"):
        reader = threading.Thread(target=read_many, daemon=True)
        reader.start()
        reader.join(120)  # a guard, not a measure: a read blocked on the FIFO is released below
        blocked = reader.is_alive()
    if blocked:  # a writer end releases the blocked open, so the test fails instead of hanging
        for path in (workspace / "notes.txt", workspace / "fifo"):
            if path.is_fifo():
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        reader.join()
    print(f"\nFIFO: {sum('FIFO' in a for a in answers)} of {len(answers)} reads refused the FIFO")
    assert not blocked
    assert all("plain text" in a or a.startswith("Error:") for a in answers)
