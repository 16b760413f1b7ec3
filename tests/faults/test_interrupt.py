"""Ctrl-C during a run whose model call hangs: before, LangGraph waited for the call in flight (up to the
request timeout, with retries) and then exited 130 without a word (typer turns KeyboardInterrupt into a
silent exit). Now the first Ctrl-C says it stops after the step in flight, a second one exits at once with
one error line, and `slmcode resume` ends the run from its last checkpoint: nothing is lost."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from slmcode.commands.interrupt import STOPPED_BY, STOPPED_NOW, STOPPING
from tests.fake_llm import FakeLLM, Reply
from tests.faults.harness import PROJECT, environment, resume_args, run_args, runs_status, scripted, slmcode_here
from tests.graph.scenario import make_repo

HANG_S = 600.0  # longer than the test waits: only a second Ctrl-C can end the run in time
WAIT_S = 120.0


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path)


def test_a_second_ctrl_c_stops_a_hung_model_call_at_once_and_resume_ends_the_run(repo: Path, fake_llm: FakeLLM) -> None:
    hung = threading.Event()

    def hang(request: dict) -> Reply:
        hung.set()
        return Reply(content="late", delay=HANG_S)

    # The worker's first call hangs, once.
    scripted(fake_llm, fault=hang, role="worker")  # type: ignore[arg-type]
    argv = [sys.executable, "-c", "from slmcode.cli import main; main()", *map(str, run_args(repo, fake_llm.url))]
    proc = subprocess.Popen(
        argv, cwd=PROJECT, env=environment(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    lines: list[str] = []
    stopping = threading.Event()

    def read_stderr() -> None:
        for line in proc.stderr:  # type: ignore[union-attr]
            lines.append(line)
            if "Ctrl-C again stops at once" in line:
                stopping.set()

    reader = threading.Thread(target=read_stderr, daemon=True)
    reader.start()
    try:
        assert hung.wait(WAIT_S), "the run never reached the worker"
        time.sleep(0.5)  # the worker's request is in flight
        proc.send_signal(signal.SIGINT)
        assert stopping.wait(WAIT_S), "the first Ctrl-C said nothing"
        proc.send_signal(signal.SIGINT)
        proc.wait(WAIT_S)
        reader.join(WAIT_S)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
    shown = [line.rstrip("\n") for line in lines if line.strip()]
    assert "Traceback" not in "".join(lines)
    assert shown[-2:] == [STOPPING, STOPPED_NOW]
    (run,) = runs_status(repo)
    assert run["status"] == "stopped"
    done = slmcode_here(*resume_args(repo, fake_llm.url))  # the hang was scripted once: now the run goes on
    assert done.code in (0, 1), done.err[-3000:]
    assert runs_status(repo)[0]["status"] in ("done", "failed")


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP], ids=["sigterm", "sighup"])
def test_sigterm_and_sighup_say_how_to_resume_and_exit_with_the_signal_code(
    repo: Path, fake_llm: FakeLLM, stop: signal.Signals
) -> None:
    """Before: the run died with no word (exit -15 / -1). Now: Ctrl-C's resume line naming the signal, exit
    128 + the signal's number, and the run resumes from its last checkpoint."""
    hung = threading.Event()

    def hang(request: dict) -> Reply:
        hung.set()
        return Reply(content="late", delay=HANG_S)

    scripted(fake_llm, fault=hang, role="worker")  # type: ignore[arg-type]
    argv = [sys.executable, "-c", "from slmcode.cli import main; main()", *map(str, run_args(repo, fake_llm.url))]
    proc = subprocess.Popen(
        argv, cwd=PROJECT, env=environment(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    try:
        assert hung.wait(WAIT_S), "the run never reached the worker"
        time.sleep(0.5)  # the worker's request is in flight
        proc.send_signal(stop)
        _, err = proc.communicate(timeout=WAIT_S)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 128 + stop
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == STOPPED_BY.format(signal=stop.name)
    (run,) = runs_status(repo)
    assert run["status"] == "stopped"
    done = slmcode_here(*resume_args(repo, fake_llm.url))
    assert done.code in (0, 1), done.err[-3000:]
    assert runs_status(repo)[0]["status"] in ("done", "failed")
