"""`slmcode chat` in a real pseudo-terminal (pexpect) over the scripted model server: two requests where the second
sees what the first did, /diff, /undo, an unknown command, /exit; Ctrl-C in the middle of a model call brings the
prompt back, and a restarted session offers to resume the run it cut off, which then ends as it would have."""

from __future__ import annotations

import io
import re
import sys
import threading
from pathlib import Path

import pytest

from slmcode.commands.chat_session import SESSION_HEAD
from slmcode.nodes.prompts import SYSTEM
from tests.fake_llm import FakeLLM, Reply, request_text, system_text, tool_call
from tests.faults.harness import MODEL, PROJECT, environment
from tests.graph.scenario import divide_worker_replies, js, script_planning

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.slow

STEP_S = 120  # one request's run on a loaded 2-core machine; a hang fails the test instead of the suite
# A new prompt: prompt_toolkit turns bracketed paste on as each prompt starts (a redraw of the line being typed
# does not), and moves the cursor over the prompt's trailing space instead of printing it.
PROMPT = re.escape("\x1b[?2004h") + r"[^\n]*?slmcode>"
FIRST = "Add a divide operation"
SECOND = "Wire divide into the command line"
DIVIDE_TESTED = "    assert ops.divide(6, 3) == 2\n"
TEST_CLI = (
    '\n\ndef test_divide_cli() -> None:\n    from calc.cli import main\n\n    assert main(["divide", "6", "3"]) == 0\n'
)
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
CLI_EDIT = {"old_str": '"multiply": ops.multiply}', "new_str": '"multiply": ops.multiply, "divide": ops.divide}'}


def _role(role: str, needle: str | None = None):  # type: ignore[no-untyped-def]
    """A request of `role`, about the request that contains `needle` when given."""
    return lambda req: SYSTEM[role] in system_text(req) and (needle is None or needle in request_text(req))


def _plan(fake: FakeLLM, needle: str, title: str, files: list[str], check: str) -> None:
    """The plan of the request that contains `needle`: one task on `files`, done when `check` exits 0."""
    criteria = [{"text": title, "priority": "must", "verify": check}]
    fake.on(_role("scope_judge", needle), js({"criteria": criteria}))
    fake.on(_role("planner", needle), js({"steps": [{"step": title, "files": files}]}))
    fake.on(
        _role("splitter", needle),
        js({"tasks": [{"title": title, "description": title, "focus_files": files, "criteria": criteria}]}),
    )


def script_session(fake: FakeLLM, first_worker: list[Reply] | None = None) -> None:
    """FIRST adds divide to calc/ops.py with its test; SECOND wires divide into calc/cli.py. SECOND's rules come
    first: its requests also name FIRST, in what the session carries."""
    _plan(
        fake,
        SECOND,
        "calc divides from the command line",
        ["calc/cli.py", "tests/test_ops.py"],
        "python -m pytest -q -k divide_cli",
    )
    fake.on(
        _role("worker", SECOND),
        Reply(tool_calls=[tool_call("ws_read", path="calc/cli.py")]),
        Reply(tool_calls=[tool_call("ws_edit", path="calc/cli.py", **CLI_EDIT)]),
        Reply(tool_calls=[tool_call("ws_read", path="tests/test_ops.py")]),
        # The edit lands on the test the first request added: it builds on that request's change.
        Reply(
            tool_calls=[
                tool_call("ws_edit", path="tests/test_ops.py", old_str=DIVIDE_TESTED, new_str=DIVIDE_TESTED + TEST_CLI)
            ]
        ),
        Reply(content="Wired divide into the command table, with its test."),
        times=5,
    )
    _plan(
        fake, FIRST, "calc.ops has divide", ["calc/ops.py", "tests/test_ops.py"], "python -m pytest -q -k test_divide"
    )
    script_planning(fake)  # clarify, learn, reviewer, escalate
    fake.on(_role("worker"), *(first_worker or divide_worker_replies()))
    fake.on(
        _role("tester"),
        Reply(tool_calls=[tool_call("ws_shell", command="python -m pytest -q")]),
        Reply(content="Tests pass."),
    )
    fake.on(_role("corrector"), Reply(content="Nothing to fix."))


class Chat:
    """`slmcode chat` in a pseudo-terminal; what it showed is kept for a failing test's message."""

    def __init__(self, repo: Path, url: str, *, inside: bool = False, yes: bool = True) -> None:
        """`inside`: started in the repository without -w, as `cd repo && slmcode chat` (a relative workspace);
        `yes` False: questions wait at the terminal."""
        # No terminal here answers prompt_toolkit's cursor-position queries; this tree's code wherever it starts.
        env = environment(PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm", PYTHONPATH=str(PROJECT))
        where = [] if inside else ["-w", str(repo)]
        argv = [
            "-c",
            "from slmcode.cli import main; main()",
            "chat",
            *where,
            "--base-url",
            url,
            "--model",
            MODEL,
            *(["--yes"] if yes else []),
        ]
        self.screen = io.StringIO()
        self.child = pexpect.spawn(
            sys.executable,
            argv,
            cwd=str(repo if inside else PROJECT),
            env=env,
            encoding="utf-8",
            timeout=STEP_S,
            dimensions=(50, 160),
        )
        self.child.logfile_read = self.screen

    def expect(self, pattern: object) -> str:
        try:
            self.child.expect(pattern)
        except (pexpect.TIMEOUT, pexpect.EOF):
            pytest.fail(f"never saw {pattern!r}; the terminal showed:\n{self.screen.getvalue()[-4000:]}")
        return ANSI.sub("", str(self.child.before)).replace("\r", "")  # the text, without colours and cursor moves

    def prompt(self) -> str:
        return self.expect(PROMPT)

    def expect_nothing_for(self, seconds: float) -> str:
        """What the terminal showed in the next `seconds` (it should stay still)."""
        try:
            self.child.expect(pexpect.TIMEOUT, timeout=seconds)
        except pexpect.EOF:
            pytest.fail(f"the session ended; the terminal showed:\n{self.screen.getvalue()[-4000:]}")
        return ANSI.sub("", str(self.child.before)).replace("\r", "")

    def type(self, line: str) -> None:
        self.child.send(line + "\r")  # Enter is a carriage return in a terminal

    def command(self, line: str) -> str:
        """Type a line and wait for the next prompt; what came between."""
        self.type(line)
        return self.prompt()

    def close(self) -> int | None:
        if self.child.isalive():
            self.child.terminate(force=True)
        self.child.close()
        return self.child.exitstatus


def test_a_follow_up_sees_the_first_request_then_diff_undo_and_exit(repo: Path, fake_llm: FakeLLM) -> None:
    script_session(fake_llm)
    chat = Chat(repo, fake_llm.url, inside=True)
    try:
        chat.prompt()
        first = chat.command(FIRST)
        assert "run id run-" in first and "\ndone\n" in first, chat.screen.getvalue()[-3000:]
        assert "def divide" in (repo / "calc/ops.py").read_text()
        second = chat.command(SECOND)
        assert "\ndone\n" in second, chat.screen.getvalue()[-3000:]
        # The second run's model requests carry the first request, its outcome and the files it changed...
        carried = [request_text(r) for r in fake_llm.requests if SECOND in request_text(r)]
        line = f'run "{FIRST}" | outcome: done | changed: file:calc/ops.py, file:tests/test_ops.py'
        assert any(SESSION_HEAD in t and line in t for t in carried)
        # ...and its edit landed on the test the first request wrote.
        assert "def test_divide() -> None:" in (repo / "tests/test_ops.py").read_text()
        assert "def test_divide_cli() -> None:" in (repo / "tests/test_ops.py").read_text()
        shown = chat.command("/diff")
        assert '+OPERATIONS = {"add": ops.add, "subtract": ops.subtract, "multiply": ops.multiply, "divide": ' in shown
        assert "+def divide(a: float, b: float) -> float:" in shown and "+def test_divide_cli() -> None:" in shown
        undone = chat.command("/undo")
        assert "calc/cli.py" in undone
        assert "divide" not in (repo / "calc/cli.py").read_text()  # the last request's change is gone
        assert "test_divide_cli" not in (repo / "tests/test_ops.py").read_text()
        assert "def divide" in (repo / "calc/ops.py").read_text()  # the first one's stays
        assert "def test_divide() -> None:" in (repo / "tests/test_ops.py").read_text()
        status = chat.command("/status")  # the thread says so: the next request does not build on it
        assert f'run "{SECOND}" | outcome: done | changed: calc/cli.py, tests/test_ops.py | ' in status
        assert "undone: its changes were taken back" in status
        assert "unknown command /frobnicate" in chat.command("/frobnicate")
        assert "/rewind" in chat.command("/help")
        chat.type("/exit")
        chat.expect(pexpect.EOF)
    finally:
        code = chat.close()
    assert code == 0


def test_ctrl_c_in_a_model_call_returns_to_the_prompt_and_a_new_session_offers_to_resume(
    repo: Path, fake_llm: FakeLLM
) -> None:
    calling = threading.Event()
    replies = divide_worker_replies()

    def slow_first_call(request: dict) -> Reply:
        calling.set()
        first = replies[0]
        return Reply(tool_calls=first.tool_calls, delay=4.0)  # long enough for Ctrl-C to land in the call

    script_session(fake_llm, [slow_first_call, *replies[1:]])  # type: ignore[list-item]
    chat = Chat(repo, fake_llm.url)
    try:
        chat.prompt()
        chat.type(FIRST)
        assert calling.wait(STEP_S), chat.screen.getvalue()[-3000:]
        chat.child.sendintr()
        stopped = chat.prompt()
        assert "stopping after the step in flight" in stopped and "stopped: the run keeps its checkpoint" in stopped
        assert "error:" not in stopped  # the user asked for the stop
        assert "def divide" not in (repo / "calc/ops.py").read_text()  # stopped before the edit
        chat.type("/exit")
        chat.expect(pexpect.EOF)
    finally:
        chat.close()
    again = Chat(repo, fake_llm.url)
    try:
        offered = again.expect(r"Resume it\? \[Y/n\]")
        assert "was cut off" in offered and FIRST in offered
        again.type("y")
        resumed = again.prompt()
        assert "run resumed" in resumed and "\ndone\n" in resumed, again.screen.getvalue()[-3000:]
        assert "def divide" in (repo / "calc/ops.py").read_text()
        assert f'run "{FIRST}" | outcome: done' in again.command("/status")
        again.child.sendeof()  # Ctrl-D leaves too
        again.expect(pexpect.EOF)
    finally:
        code = again.close()
    assert code == 0


def test_a_second_ctrl_c_ends_the_session_at_once_and_the_next_one_resumes_its_run(
    repo: Path, fake_llm: FakeLLM
) -> None:
    calling = threading.Event()
    replies = divide_worker_replies()

    def worker(request: dict) -> Reply:
        """Each answer by how far the worker got (its tool results), so the resumed run's requests get the answers
        the killed one would have; the very first call hangs: only a second Ctrl-C ends the wait in time."""
        done = sum(1 for m in request.get("messages", []) if m.get("role") == "tool")
        if not calling.is_set():
            calling.set()
            return Reply(tool_calls=replies[0].tool_calls, delay=60.0)
        return replies[min(done, len(replies) - 1)]

    script_session(fake_llm, [worker])  # type: ignore[list-item]
    chat = Chat(repo, fake_llm.url)
    try:
        chat.prompt()
        chat.type(FIRST)
        assert calling.wait(STEP_S), chat.screen.getvalue()[-3000:]
        chat.child.sendintr()
        chat.expect("Ctrl-C again stops at once")
        chat.child.sendintr()
        chat.expect(pexpect.EOF)
    finally:
        code = chat.close()
    assert code == 130  # as a kill: the run was never recorded as ended
    again = Chat(repo, fake_llm.url)
    try:
        assert FIRST in again.expect(r"Resume it\? \[Y/n\]")
        again.type("")  # Enter: yes
        assert "\ndone\n" in again.prompt(), again.screen.getvalue()[-3000:]
        assert "def divide" in (repo / "calc/ops.py").read_text()
        again.type("/exit")
        again.expect(pexpect.EOF)
    finally:
        again.close()


def test_ask_answers_without_edits_and_plan_waits_for_approve(repo: Path, fake_llm: FakeLLM) -> None:
    answer = "calc/cli.py maps each command name to a function of calc/ops.py."
    fake_llm.on(
        _role("explorer"), Reply(tool_calls=[tool_call("ws_read", path="calc/cli.py")]), Reply(content=answer), times=2
    )
    script_session(fake_llm)
    before = {p: (repo / p).read_text() for p in ("calc/cli.py", "calc/ops.py")}
    chat = Chat(repo, fake_llm.url)
    try:
        chat.prompt()
        assert answer in chat.command("/ask what does calc/cli.py do?")
        assert {p: (repo / p).read_text() for p in before} == before  # the explorer only reads
        planned = chat.command(f"/plan {FIRST}")
        assert "waits for plan approval" in planned and "/approve goes on with this plan" in planned
        assert "calc.ops has divide" in planned  # the task list, before any code is written
        assert (repo / "calc/ops.py").read_text() == before["calc/ops.py"]
        assert "\ndone\n" in chat.command("/approve"), chat.screen.getvalue()[-3000:]
        assert "def divide" in (repo / "calc/ops.py").read_text()
        assert "no plan waits for approval" in chat.command("/approve")
        chat.type("/exit")
        chat.expect(pexpect.EOF)
    finally:
        chat.close()
