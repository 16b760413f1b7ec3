"""A first session of `slmcode chat` in a real pseudo-terminal, in a folder without git (README's demo copies the
calculator to /tmp) and without --yes: the worker's first call streams slowly and the board shows it in flight;
the task fails, the escalation question waits at its input line with no board repainted under it, and give_up
ends the run; /diff shows the run's changes from its before-images; /status counts the request; no "error:"
line for any of it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from slmcode.nodes.prompts import SYSTEM
from tests.fake_llm import FakeLLM, Reply
from tests.graph.scenario import script_buggy_worker_then_fix, script_planning
from tests.test_cli_chat import Chat

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.slow

QUESTION = "retry: <guidance> | give_up | auto (default) > "
THOUGHT = "Reading calc/ops.py to see how multiply is written before I add divide beside it. " * 3


@pytest.fixture
def folder(repo: Path) -> Path:
    shutil.rmtree(repo / ".git")
    return repo


def test_streaming_give_up_diff_and_status_in_a_folder_without_git(folder: Path, fake_llm: FakeLLM) -> None:
    script_planning(fake_llm)
    fake_llm.rules.pop()  # the escalate role: only the user decides here
    worker = len(fake_llm.rules)
    script_buggy_worker_then_fix(fake_llm, fix=False)
    first = fake_llm.rules[worker].replies[0]  # the worker's first answer, sent slowly with words before its call
    assert isinstance(first, Reply)
    fake_llm.rules[worker].replies[0] = Reply(content=THOUGHT, tool_calls=first.tool_calls, chunk_delay=0.08)
    fake_llm.on(SYSTEM["tester"], Reply(content="Nothing to test."))
    chat = Chat(folder, fake_llm.url, yes=False)
    try:
        chat.prompt()
        chat.type("Add a divide operation")
        asked = chat.expect(re.escape(QUESTION))
        flying, finished = asked.find("model call in flight: worker r1t1"), asked.find("last model call: worker")
        assert 0 <= flying < finished, asked[-3000:]  # its tokens showed while the call still ran
        sent = len(fake_llm.requests)
        waiting = chat.expect_nothing_for(1.5)  # the board is stopped while the question waits
        assert "phase:" not in waiting, waiting
        chat.type("give_up")
        ended = chat.prompt()
        assert "you gave up on r1t1" in ended, ended[-3000:]
        assert len(fake_llm.requests) == sent  # no tester, QA or new plan went to the model
        shown = chat.command("/diff")
        assert "+def divide(a: float, b: float) -> float:" in shown and "b/calc/ops.py" in shown, shown
        assert "No change" not in shown
        status = chat.command("/status")
        assert "1 request(s) run here" in status, status
        chat.type("/exit")
        chat.expect(pexpect.EOF)
    finally:
        chat.close()
    assert "error:" not in chat.screen.getvalue()
