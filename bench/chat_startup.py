"""How long `slmcode chat` takes to reach its prompt, in CPU seconds of its process (user + system), in a real
pseudo-terminal; the wall time beside it, and `slmcode --help` in the same way for scale.

The CPU time is read from /proc/PID/stat the moment the prompt appears, so the wait for the terminal is not
counted and a loaded machine changes the figure less than it changes the wall time. The workspace is a copy of
examples/calculator; no model server is needed to reach the prompt (a run's first request checks it).

Usage: python bench/chat_startup.py [--runs 5]. Prints a table and the machine's load. Nothing here asserts.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import pexpect

PROJECT = Path(__file__).resolve().parents[1]
EXAMPLE = PROJECT / "examples" / "calculator"
TICKS = os.sysconf("SC_CLK_TCK")
PROMPT = "slmcode>"


def cpu_seconds(pid: int) -> float:
    """utime + stime of a live process (fields 14 and 15 of /proc/PID/stat, after the command's parentheses)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def one(args: list[str], until: str | None, cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of `slmcode ARGS` until `until` shows, or until it exits."""
    argv = ["-c", "from slmcode.cli import main; main()", *args]
    started = time.perf_counter()
    child = pexpect.spawn(
        sys.executable, argv, cwd=str(cwd), env=env, encoding="utf-8", timeout=60, dimensions=(40, 120)
    )
    try:
        if until is None:
            # A process that exits: its CPU time is its whole life, read from its last moment.
            child.expect(pexpect.EOF)
            child.close()
            return float("nan"), time.perf_counter() - started
        child.expect(until)
        wall = time.perf_counter() - started
        cpu = cpu_seconds(child.pid)
        child.sendeof()
        child.expect(pexpect.EOF)
        return cpu, wall
    finally:
        child.close(force=True)


def help_cpu(cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """`slmcode --help`: the children's CPU time as the parent sees it after it exits."""
    import resource
    import subprocess

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", "from slmcode.cli import main; main()", "--help"],
        cwd=cwd,
        env=env,
        capture_output=True,
        check=True,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    root = Path(tempfile.mkdtemp(prefix="slmcode-chat-bench-"))
    try:
        workspace = root / "calculator"
        shutil.copytree(EXAMPLE, workspace, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
        env = {
            **os.environ,
            "SLMCODE_HOME": str(root / "home"),
            "PROMPT_TOOLKIT_NO_CPR": "1",
            "TERM": "xterm",
            "PYTHONPATH": str(PROJECT),
        }
        one(["chat"], PROMPT, workspace, env)  # warm: .pyc files and the page cache, not counted
        chat = [one(["chat"], PROMPT, workspace, env) for _ in range(runs)]
        helps = [help_cpu(workspace, env) for _ in range(runs)]
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"{'command':<24} {'CPU s (median)':>15} {'CPU s (min)':>12} {'wall s (median)':>16}")
    for name, rows in (("slmcode chat -> prompt", chat), ("slmcode --help", helps)):
        cpu = [c for c, _ in rows]
        print(
            f"{name:<24} {statistics.median(cpu):>15.2f} {min(cpu):>12.2f} "
            f"{statistics.median(w for _, w in rows):>16.2f}"
        )
    load = Path("/proc/loadavg").read_text().split()[:3]
    print(f"runs {runs} each; load average {' '.join(load)} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
