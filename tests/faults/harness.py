"""What every fault case uses: the CLI in a subprocess, a fixture repository, a scripted server that breaks
where a case says, and the checks each case makes: the exit code, ONE line on stderr naming the cause (no
traceback), no file lost or half-written, and what `slmcode resume` says afterwards."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

from slmcode.nodes.prompts import SYSTEM
from tests.fake_llm import FakeLLM, Reply
from tests.graph.scenario import python_on_path, script_buggy_worker_then_fix, script_planning

PROJECT = Path(__file__).resolve().parents[2]
MODEL = "qwen2.5-coder:7b"
QUERY = "Add a divide operation"
SKIPPED = {".slmcode", ".git", "__pycache__", ".pytest_cache"}
CLI_TIMEOUT_S = 300


@dataclass(frozen=True)
class Done:
    code: int
    out: str
    err: str

    def error_line(self) -> str:
        """The one line on stderr; fails the case when there is none, several, or a traceback."""
        lines = [line for line in self.err.splitlines() if line.strip()]
        assert "Traceback" not in self.err and "╭─" not in self.err, self.err[-3000:]
        assert len(lines) == 1, f"expected one line on stderr, got {len(lines)}:\n{self.err[-3000:]}"
        assert lines[0].startswith("error: "), lines[0]
        return lines[0]


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLMCODE_") or k == "SLMCODE_HOME"}
    return {**env, "PATH": python_on_path(), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", **extra}


def slmcode(*args: str | Path, env: dict[str, str] | None = None, timeout: float = CLI_TIMEOUT_S) -> Done:
    """`slmcode ARGS` as a user runs it, in a process of its own, from this tree's code."""
    argv = [sys.executable, "-c", "from slmcode.cli import main; main()", *map(str, args)]
    done = subprocess.run(argv, cwd=PROJECT, env=env or environment(), capture_output=True, text=True, timeout=timeout)
    return Done(done.returncode, done.stdout, done.stderr)


def slmcode_here(*args: str | Path, env: dict[str, str] | None = None) -> Done:
    """`slmcode ARGS` through the same entry point, in this process: for the many cases that stop before any
    run starts (a process each would cost a second of imports)."""
    from slmcode.cli import main

    out, err = io.StringIO(), io.StringIO()
    argv = ["slmcode", *map(str, args)]
    with (
        mock.patch.object(sys, "argv", argv),
        mock.patch.dict(os.environ, env or environment(), clear=True),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        try:
            main()
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return Done(code, out.getvalue(), err.getvalue())


def run_args(repo: Path, url: str, *extra: str, query: str = QUERY) -> list[str | Path]:
    return ["run", query, "-w", repo, "--base-url", url, "--model", MODEL, "--yes", *extra]


def resume_args(repo: Path, url: str, *extra: str) -> list[str | Path]:
    return ["resume", *extra, "-w", repo, "--base-url", url, "--yes"]


def scripted(fake: FakeLLM, *, fault: Reply | str | None = None, role: str = "clarify", after: int = 0) -> FakeLLM:
    """The calculator team's script; `fault` answers `role`'s request number `after` + 1, once: a streamed request
    that breaks off is asked again whole at once (providers.guard), and that re-ask gets the same fault, as it
    would from the server that sent it."""
    if fault is not None:
        seen: dict[str, Any] = {"n": 0, "streamed": None}

        def faulty(request: dict) -> bool:
            if SYSTEM[role] not in "\n".join(str(m.get("content") or "") for m in request.get("messages", [])):
                return False
            seen["n"] += 1
            if seen["n"] == after + 1:
                seen["streamed"] = request["messages"] if request.get("stream") else None
                return True
            return seen["n"] == after + 2 and not request.get("stream") and request["messages"] == seen["streamed"]

        fake.on(faulty, fault, times=2)
    script_planning(fake)
    script_buggy_worker_then_fix(fake)
    return fake


def script_by_progress(fake: FakeLLM) -> FakeLLM:
    """The same team, each answer picked by how far the role's conversation got (its tool results so far),
    not by how many requests came before: a request sent again after a kill gets the answer it got before."""
    recorder = FakeLLM()
    script_planning(recorder)
    script_buggy_worker_then_fix(recorder)
    for rule in recorder.rules:

        def pick(request: dict, replies: list = rule.replies) -> Reply | str:
            done = sum(1 for m in request.get("messages", []) if m.get("role") == "tool")
            return replies[min(done, len(replies) - 1)]

        fake.on(rule.match, pick)
    return fake


def tree_digest(repo: Path) -> dict[str, str]:
    """Every project file's hash (the harness's own state left out)."""
    return {
        str(p.relative_to(repo)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(repo.rglob("*"))
        if p.is_file() and not SKIPPED & set(p.relative_to(repo).parts)
    }


def assert_state_intact(repo: Path) -> None:
    """No half-written state: no temp file left, every JSON parses, every SQLite file passes its check."""
    state = repo / ".slmcode"
    if not state.is_dir():
        return
    leftovers = [p for p in state.rglob("*.tmp") if p.is_file()]
    assert not leftovers, leftovers
    for path in state.rglob("*.json"):
        json.loads(path.read_text(encoding="utf-8"))
    for path in state.glob("*.sqlite"):
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok", path


def runs_status(repo: Path) -> list[dict]:
    done = slmcode_here("status", "-w", repo, "--json")
    assert done.code == 0, done.err
    return json.loads(done.out)


def assert_resume_answers(repo: Path, url: str, env: dict[str, str] | None = None) -> Done:
    """`slmcode resume` either runs (exit 0 or 1, a result) or says why not in one line (exit 2)."""
    done = slmcode_here(*resume_args(repo, url), env=env)
    if done.code == 2:
        done.error_line()
    else:
        assert done.code in (0, 1), done.err[-3000:]
        assert "Traceback" not in done.err
    return done
