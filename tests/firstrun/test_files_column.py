"""The verdict table's files column is what the run left on disk: a file the worker wrote and then put back
as it was is not a change, and a file the worker made is listed even when the task failed."""

from __future__ import annotations

import subprocess
from pathlib import Path

from rich.console import Console

from slmcode import api
from slmcode.nodes.prompts import SYSTEM
from slmcode.terminal import result_table
from tests.fake_llm import FakeLLM, Reply, tool_call
from tests.graph.scenario import DIVIDE, MULTIPLY_END, TEST_DIVIDE, script_planning

MARK = "    # TODO divide\n"


def on_disk(repo: Path) -> list[str]:
    """What git sees changed or new, outside the harness's own .slmcode/ and caches."""
    out = subprocess.run(["git", "status", "--porcelain", "-uall"], cwd=repo, capture_output=True, text=True).stdout
    return sorted(
        p
        for p in (line[3:] for line in out.splitlines())
        if not p.startswith(".slmcode/") and "__pycache__" not in p and ".pytest_cache" not in p
    )


def table_files(result: api.RunResult) -> list[str]:
    console = Console(width=300, record=True, color_system=None)
    console.print(result_table(result))
    text = console.export_text()
    return sorted({f.strip() for task in result.tasks for f in task.files_changed if f.strip() in text})


def test_a_file_written_and_put_back_is_not_listed_and_the_rest_matches_git(fake_llm: FakeLLM, repo: Path) -> None:
    script_planning(fake_llm)
    ops = "calc/ops.py"
    fake_llm.on(
        SYSTEM["worker"],
        Reply(tool_calls=[tool_call("ws_read", path=ops)]),
        # a stray edit the worker later undoes by hand: the file ends as it began
        Reply(tool_calls=[tool_call("ws_edit", path=ops, old_str=MULTIPLY_END, new_str=MULTIPLY_END + MARK)]),
        Reply(tool_calls=[tool_call("ws_edit", path=ops, old_str=MULTIPLY_END + MARK, new_str=MULTIPLY_END)]),
        Reply(tool_calls=[tool_call("ws_write", path="calc/divide.py", content=DIVIDE.lstrip())]),
        Reply(tool_calls=[tool_call("ws_read", path="tests/test_ops.py")]),
        Reply(
            tool_calls=[
                tool_call(
                    "ws_edit",
                    path="tests/test_ops.py",
                    old_str="    assert ops.multiply(4, 3) == 12\n",
                    new_str="    assert ops.multiply(4, 3) == 12\n" + TEST_DIVIDE,
                )
            ]
        ),
        Reply(content="Added divide and its test."),
    )
    fake_llm.on(SYSTEM["corrector"], Reply(content="Done."))
    fake_llm.on(SYSTEM["tester"], Reply(content="Done."))
    result = api.run(
        "Add a divide operation",
        repo,
        base_url=fake_llm.url,
        model="qwen2.5-coder:7b",
        request_retries=0,
        max_retries=0,
    )
    code = next(t for t in result.tasks if t.kind == "code")
    assert on_disk(repo) == ["calc/divide.py", "tests/test_ops.py"]
    assert code.files_changed == ["calc/divide.py", "tests/test_ops.py"]
    listed = {f for t in result.tasks for f in t.files_changed}
    assert listed <= set(on_disk(repo))
    assert table_files(result) == on_disk(repo)
