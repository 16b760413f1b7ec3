"""Ctrl-C during `run` or `resume`: the first press stops the run after the step in flight, the second at once.

LangGraph runs a node on a worker thread and, on KeyboardInterrupt, waits for it to finish: a model call in
flight (up to request_timeout, with retries) held the terminal for minutes after Ctrl-C with nothing said.
The first press now says so and stops the run the usual way (recorded interrupted, the checkpoint kept); a
second press exits at once, as a kill would: every finished step is already checkpointed, `status` calls the
run stopped and `resume` continues it. atexit callbacks run first, so an embedded model server stops too.
Typer turns a KeyboardInterrupt into a silent exit 130, so the run's last line is printed here.

SIGTERM (a service manager, `kill`) and SIGHUP (the terminal closed) stop at once, as a second Ctrl-C does,
with the same resume line and the shell's own code for a death by that signal (128 + its number: 143, 129),
so a script can tell which stop it was. Before, either ended the run with no word.
"""

from __future__ import annotations

import atexit
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

EXIT_INTERRUPTED = 130
STOPPING = "stopping after the step in flight (a model call or a command may take a while); Ctrl-C again stops at once"
# Not "error:": the user asked for the stop, and it went as asked.
INTERRUPTED = "interrupted: `slmcode resume` continues the run from its last checkpoint"
STOPPED_NOW = "stopped at once: `slmcode resume` continues the run from its last checkpoint"
STOPPED_BY = "stopped by {signal}: `slmcode resume` continues the run from its last checkpoint"
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


@contextmanager
def two_stage_interrupt(*, say_interrupted: bool = True) -> Iterator[None]:
    """While a run goes on: the first SIGINT raises KeyboardInterrupt, the second exits with code 130.
    `say_interrupted` False: the caller says what the stop means (chat's prompt comes back with its own line)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pressed = 0

    def on_sigint(signum: int, frame: FrameType | None) -> None:
        nonlocal pressed
        pressed += 1
        if pressed == 1:
            _say(f"\n{STOPPING}")
            raise KeyboardInterrupt
        _exit_now(STOPPED_NOW, EXIT_INTERRUPTED)

    def on_stop(signum: int, frame: FrameType | None) -> None:
        _exit_now(STOPPED_BY.format(signal=signal.Signals(signum).name), 128 + signum)

    previous = signal.signal(signal.SIGINT, on_sigint)
    previous_stops = {number: signal.signal(number, on_stop) for number in STOP_SIGNALS}
    try:
        yield
    except KeyboardInterrupt:
        if say_interrupted:
            _say(INTERRUPTED)  # typer turns KeyboardInterrupt into exit 130 and says nothing
        raise
    finally:
        signal.signal(signal.SIGINT, previous)
        for number, handler in previous_stops.items():
            signal.signal(number, handler)


def _exit_now(line: str, code: int) -> None:
    """Every finished step is checkpointed (durability="sync"): exiting here loses only the step in flight."""
    _say(line)
    try:
        atexit._run_exitfuncs()  # the embedded model server's stop, among others
    finally:
        os._exit(code)


def _say(line: str) -> None:
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed or broken stderr must not keep the run alive
        pass
