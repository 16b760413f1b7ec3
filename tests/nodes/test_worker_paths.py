"""A file the worker read under another spelling of its path (absolute, `./x`) counts as read: its next edit is
accepted, and the task reports the file by its workspace path. Through the real graph and the scripted server."""

from __future__ import annotations

from pathlib import Path

from slmcode import api
from slmcode.nodes.prompts import SYSTEM
from tests.fake_llm import FakeLLM, Reply, tool_call
from tests.graph.scenario import DIVIDE, MULTIPLY_END, TEST_DIVIDE, script_planning

OLD_TEST = "    assert ops.multiply(4, 3) == 12\n"


def worker_results(fake: FakeLLM) -> list[str]:
    """Every tool result the worker's last request carried, in order."""
    worker = [r for r in fake.requests if r["messages"][0]["content"].startswith(SYSTEM["worker"])]
    return [m["content"] for m in worker[-1]["messages"] if m["role"] == "tool"]


def test_a_file_read_through_an_absolute_or_dotted_path_can_be_edited_next_turn(fake_llm: FakeLLM, repo: Path) -> None:
    script_planning(fake_llm)
    fake_llm.on(
        SYSTEM["worker"],
        Reply(tool_calls=[tool_call("ws_read", path=str(repo / "calc" / "ops.py"))]),
        Reply(
            tool_calls=[tool_call("ws_edit", path="calc/ops.py", old_str=MULTIPLY_END, new_str=MULTIPLY_END + DIVIDE)]
        ),
        Reply(tool_calls=[tool_call("ws_read", path="./tests/../tests/test_ops.py")]),
        Reply(
            tool_calls=[
                tool_call(
                    "ws_edit",
                    path=str(repo / "tests" / "test_ops.py"),
                    old_str=OLD_TEST,
                    new_str=OLD_TEST + TEST_DIVIDE,
                )
            ]
        ),
        Reply(content="Added divide and its test."),
    )
    fake_llm.on(SYSTEM["tester"], Reply(content="Nothing more to test."))
    result = api.run("Add a divide operation", repo, base_url=fake_llm.url, model="qwen2.5-coder:7b", request_retries=0)
    results = worker_results(fake_llm)
    assert not [r for r in results if r.startswith("Error")], results
    assert "def divide" in (repo / "calc" / "ops.py").read_text()
    assert "test_divide" in (repo / "tests" / "test_ops.py").read_text()
    code = next(t for t in result.tasks if t.kind == "code")
    # Reported by workspace path whatever spelling the model used, so review checks the right files on disk.
    assert code.files_changed == ["calc/ops.py", "tests/test_ops.py"]
