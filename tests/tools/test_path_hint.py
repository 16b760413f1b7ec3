"""A path that does not exist is answered with the files the model probably meant, through the real graph and the
scripted server: a folder too many (src/calc/ops.py), a folder too few (test_ops.py), a near spelling. ws_edit on
a missing path says it does not exist, not "read it first" (which sent a model to read a file that is not there);
an edit re-sent after it was made says so, not "not found" with the nearest lines."""

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


@pytest.mark.slow
def test_an_edit_made_before_is_answered_as_made_not_as_a_miss(fake_llm: FakeLLM, repo: Path) -> None:
    old = '    """Return the sum of a and b."""\n    return a + b\n'
    new = '    """Return the sum of a and b, as a float."""\n    return float(a + b)\n'
    edit = tool_call("ws_edit", path="calc/ops.py", old_str=old, new_str=new)
    run(
        fake_llm,
        repo,
        Reply(tool_calls=[tool_call("ws_read", path="calc/ops.py")]),
        Reply(tool_calls=[edit]),
        Reply(tool_calls=[edit]),
        Reply(content="Done."),
    )
    made, again = (last_tool_result(r) for r in worker_requests(fake_llm)[2:4])
    assert made.startswith("edited calc/ops.py")
    assert again.startswith("Error: old_str was not found in calc/ops.py, but new_str already is (line ")
    assert "this edit was made before" in again and "closest lines" not in again
