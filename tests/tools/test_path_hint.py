"""A path that does not exist is answered with the files the model probably meant, through the real graph and the
scripted server: a folder too many (src/calc/ops.py), a folder too few (test_ops.py), a near spelling. ws_edit on
a missing path says it does not exist, not "read it first" (which sent a model to read a file that is not there)."""

from __future__ import annotations

from pathlib import Path

import pytest

from slmcode.tools.pathhint import closest_paths
from tests.fake_llm import FakeLLM, Reply, tool_call
from tests.nodes.test_worker_loop import last_tool_result, run, worker_requests


@pytest.mark.slow
def test_a_misplaced_path_is_answered_with_the_file_that_exists(fake_llm: FakeLLM, repo: Path) -> None:
    calls = [
        tool_call("ws_read", path="src/calc/ops.py"),
        tool_call("ws_read", path="test_ops.py"),
        tool_call("ws_edit", path="calc/opps.py", old_str="x", new_str="y"),
    ]
    run(fake_llm, repo, *(Reply(tool_calls=[c]) for c in calls), Reply(content="Done."))
    results = [last_tool_result(r) for r in worker_requests(fake_llm)[1:4]]
    assert results[0] == "Error: src/calc/ops.py does not exist. ws_list shows what is there. Did you mean calc/ops.py?"
    assert results[1].endswith("Did you mean tests/test_ops.py?")
    assert results[2].startswith("Error: calc/opps.py does not exist.") and "calc/ops.py" in results[2]


def test_only_paths_that_exist_and_are_close_are_named() -> None:
    files = ["calc/ops.py", "calc/cli.py", "tests/test_ops.py", "README.md"]
    assert closest_paths(files, "src/calc/ops.py") == ["calc/ops.py"]
    assert closest_paths(files, "./ops.py") == ["calc/ops.py"]
    assert closest_paths(files, "docs/guide.md") == []  # nothing near: no guess
