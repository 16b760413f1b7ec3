"""The demo on a 2K window (the embedded SmolLM2-135M profile): the worker's first request must hold the task
whole and the code of the file it must edit, and `slmcode pack` must promise what the worker really gets."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from slmcode import api
from slmcode.cli import app
from slmcode.nodes.prompts import SYSTEM
from tests.fake_llm import FakeLLM, Reply
from tests.graph.scenario import script_planning

SMALL_MODEL = "smollm2:135m"  # a 2,048-token window in the profiles, like the embedded model


def worker_requests(fake: FakeLLM) -> list[dict]:
    return [r for r in fake.requests if r["messages"][0]["content"].startswith(SYSTEM["worker"])]


def test_on_a_2k_window_the_worker_sees_the_whole_task_and_the_code_it_must_edit(fake_llm: FakeLLM, repo: Path) -> None:
    script_planning(fake_llm)
    fake_llm.on(SYSTEM["worker"], Reply(content="Nothing to do."))
    fake_llm.on(SYSTEM["corrector"], Reply(content="Nothing to change."))
    fake_llm.on(SYSTEM["tester"], Reply(content="Nothing to test."))
    api.run(
        "Add a divide operation to calc/ops.py with a test",
        repo,
        base_url=fake_llm.url,
        model=SMALL_MODEL,
        request_retries=0,
        max_retries=0,
    )
    first = worker_requests(fake_llm)[0]
    text = "\n".join(str(m.get("content") or "") for m in first["messages"])
    # calc/ops.py's code to its last line, as the worker must copy it into an edit
    assert "def multiply(a: float, b: float) -> float:" in text
    assert "16\t    return a * b" in text
    # the whole task: its title, its description and its criterion with the command that checks it
    task = text.split("## Task", 1)[1]
    # (a 135M model's plan is filled without it: nodes/simple_task.py)
    assert "Add divide to calc/ops.py like its neighbours, and test_divide to tests/test_ops.py." in task
    assert "verify: `python -m pytest -q -k divide`" in task
    assert "cut: budget" not in task
    # the tools a 2K window cannot afford are left out, and the ones that edit stay
    names = {t["function"]["name"] for t in first["tools"]}
    assert {"ws_read", "ws_edit", "ws_write"} <= names and "ws_list" not in names


def test_pack_promises_the_worker_what_the_run_gives_it(repo: Path) -> None:
    result = CliRunner().invoke(
        app,
        [
            "pack",
            "--query",
            "Add a divide operation to calc/ops.py with a test",
            "--model",
            SMALL_MODEL,
            "-w",
            str(repo),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    shown = json.loads(result.stdout)
    budget = CliRunner().invoke(app, ["budget", "--model", SMALL_MODEL, "-w", str(repo), "--json"])
    room = json.loads(budget.stdout)["worker_room"]
    assert shown["budget"] == room["pack"] < json.loads(budget.stdout)["available"]
    assert "ws_list" in room["tools_dropped"]
