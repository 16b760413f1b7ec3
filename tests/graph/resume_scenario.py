"""The scripted team for the crash-resume tests: two code tasks run one after the other, then the tester.

- r1t1 "Add divide": the worker reads both files, then answers with ONE step of three calls: edit ops.py,
  edit test_ops.py, run pytest. Killed while pytest runs, the resumed step must take both edits from the
  journal: applied again, the first edit would add a second divide() (its anchor is still in the file).
- r1t2 "Add power" waits for r1t1. Its `should` criterion has no verify command, so the reviewer model is
  asked about it (a task whose checks all PASSED takes the fast path and asks no model).

A pause gate lets a test stop the run inside a tool call: the fixture repository's tests/conftest.py makes
pytest wait while `calc-pause` exists in its TMPDIR (once test_divide is written: the coordinator's run of the
checks before any edit goes through). The gate lives in the command's scratch folder because the OS sandbox shows a
command nothing else outside the workspace; the test finds it on the host with `scratch_dir`. While it runs, the
paused pytest holds a lock on `calc-pause.started`, so the test knows when it has ended (its pid, in the
sandbox's own PID namespace, would mean nothing on the host).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from slmcode.nodes.prompts import SYSTEM
from tests.fake_llm import FakeLLM, Reply, request_text, system_text, tool_call
from tests.graph.scenario import MULTIPLY_END, make_repo

QUERY = "Add divide and power operations"
PAUSE_NAME = "calc-pause"
PAUSE_CONFTEST = '''"""Pauses the test session while TMPDIR/calc-pause exists (crash-resume tests)."""

import fcntl
import os
import tempfile
import time
from pathlib import Path

HELD = []  # the lock on calc-pause.started, held until this pytest ends


def pytest_sessionstart(session):
    gate = Path(tempfile.gettempdir(), "calc-pause")
    # Only the worker's own run after its edits: the coordinator's run of the checks before any edit passes.
    edited = "test_divide" in Path(str(session.config.rootpath), "tests", "test_ops.py").read_text()
    if gate.exists() and edited:
        started = open(str(gate) + ".started", "w")
        fcntl.flock(started, fcntl.LOCK_EX)
        started.write(str(os.getpid()))
        started.flush()
        HELD.append(started)
        deadline = time.monotonic() + 120
        while gate.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
'''
DIVIDE = '''

def divide(a: float, b: float) -> float:
    """Return a divided by b."""
    return a / b
'''
DIVIDE_END = '''    """Return a divided by b."""
    return a / b
'''
POWER = '''

def power(a: float, b: float) -> float:
    """Return a raised to the power b; a negative b gives the reciprocal."""
    return a**b
'''
TEST_ANCHOR = "    assert ops.multiply(4, 3) == 12\n"
TEST_DIVIDE = """

def test_divide() -> None:
    assert ops.divide(6, 3) == 2
"""
TEST_DIVIDE_END = "    assert ops.divide(6, 3) == 2\n"
TEST_POWER = """

def test_power() -> None:
    assert ops.power(2, 3) == 8
"""
# Each task's check selects its own test: it fails before the task's edit (no test selected, exit 5), so its
# PASSED afterwards is evidence of the change (a check the unchanged tree passes is UNVERIFIED).
TESTS_PASS = {"text": "the tests pass", "priority": "must", "verify": "python -m pytest -q -k divide"}
POWER_TESTS_PASS = {"text": "the tests pass", "priority": "must", "verify": "python -m pytest -q -k power"}


def make_pausable_repo(root: Path) -> Path:
    """The calculator repository plus the pause gate, committed."""
    repo = make_repo(root)
    (repo / "tests" / "conftest.py").write_text(PAUSE_CONFTEST)
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
    }
    for args in (["add", "-A"], ["commit", "-qm", "pause gate"]):
        subprocess.run(["git", *args], cwd=repo, check=True, env=env)
    return repo


def js(value: object) -> str:
    return json.dumps(value)


def script_two_tasks(fake: FakeLLM) -> None:
    fake.on(
        SYSTEM["clarify"],
        js({"requirements": ["calc.ops has divide(a, b)", "calc.ops has power(a, b)"], "questions": []}),
    )
    fake.on(SYSTEM["scope_judge"], js({"criteria": [TESTS_PASS]}))
    fake.on(
        SYSTEM["planner"],
        js(
            {
                "steps": [
                    {"step": "add divide and its test", "files": ["calc/ops.py", "tests/test_ops.py"]},
                    {"step": "add power and its test", "files": ["calc/ops.py", "tests/test_ops.py"]},
                ]
            }
        ),
    )
    fake.on(
        SYSTEM["splitter"],
        js(
            {
                "tasks": [
                    {
                        "title": "Add divide",
                        "description": "Add divide(a, b) to calc/ops.py and a test in tests/test_ops.py",
                        "focus_files": ["calc/ops.py", "tests/test_ops.py"],
                        "criteria": [TESTS_PASS],
                    },
                    {
                        "title": "Add power",
                        "description": "Add power(a, b) to calc/ops.py and a test in tests/test_ops.py",
                        "focus_files": ["calc/ops.py", "tests/test_ops.py"],
                        "depends_on": ["Add divide"],
                        "criteria": [
                            POWER_TESTS_PASS,
                            {"text": "power's docstring covers negative exponents", "priority": "should"},
                        ],
                    },
                ]
            }
        ),
    )
    fake.on(
        SYSTEM["worker"],
        # r1t1
        Reply(tool_calls=[tool_call("ws_read", path="calc/ops.py")]),
        Reply(tool_calls=[tool_call("ws_read", path="tests/test_ops.py")]),
        Reply(
            tool_calls=[
                tool_call("ws_edit", path="calc/ops.py", old_str=MULTIPLY_END, new_str=MULTIPLY_END + DIVIDE),
                tool_call("ws_edit", path="tests/test_ops.py", old_str=TEST_ANCHOR, new_str=TEST_ANCHOR + TEST_DIVIDE),
                tool_call("ws_shell", command="python -m pytest -q"),
            ]
        ),
        Reply(content="Added divide and its test; the tests pass."),
        # r1t2
        Reply(tool_calls=[tool_call("ws_read", path="calc/ops.py"), tool_call("ws_read", path="tests/test_ops.py")]),
        Reply(
            tool_calls=[
                tool_call("ws_edit", path="calc/ops.py", old_str=DIVIDE_END, new_str=DIVIDE_END + POWER),
                tool_call(
                    "ws_edit", path="tests/test_ops.py", old_str=TEST_DIVIDE_END, new_str=TEST_DIVIDE_END + TEST_POWER
                ),
            ]
        ),
        Reply(content="Added power and its test."),
    )
    fake.on(SYSTEM["reviewer"], js({"approve": True, "notes": []}))
    fake.on(
        SYSTEM["tester"],
        Reply(tool_calls=[tool_call("ws_shell", command="python -m pytest -q")]),
        Reply(content="Tests pass."),
    )
    fake.on(SYSTEM["learn"], js({"lessons": ["Add each operation with its test in tests/test_ops.py."]}))
    fake.on(SYSTEM["escalate"], js({"decision": "give_up", "guidance": ""}))


def is_first_power_request(request: dict) -> bool:
    """The worker's first model request for r1t2: its worker system prompt, no answer yet, about power."""
    return (
        system_text(request).startswith(SYSTEM["worker"])
        and not any(m.get("role") == "assistant" for m in request.get("messages", []))
        and "Add power" in request_text(request)
    )


def is_review(request: dict) -> bool:
    return system_text(request).startswith(SYSTEM["reviewer"])


def hold(fake: FakeLLM, match: object, seconds: float = 90.0) -> None:
    """Put a rule ahead of the script that answers the first matching request only after `seconds`."""
    fake.on(match, Reply(content="{}", delay=seconds), times=1)  # type: ignore[arg-type]
    fake.rules.insert(0, fake.rules.pop())
