"""The edit format in a live worker, through the real graph and the scripted server: a model whose old_str never
matches (it recalls a line wrongly each time) is offered calc/ops.py's whole-file rewrite after two misses in
`auto` (the default for qwen2.5-coder:7b) and adds divide with it, after the guard refused a rewrite that dropped
subtract; with edit_format: replace the same model never gets the offer and ops.py stays as it was. A model that
recalls a method out of its indentation has its edit applied, re-indented."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from slmcode import api
from slmcode.nodes.prompts import SYSTEM
from tests.fake_llm import FakeLLM, Reply, tool_call
from tests.graph.scenario import DIVIDE, MULTIPLY_END, script_planning

OPS = "calc/ops.py"
# The multiply body as a small model recalls it: one line changed, so it never occurs in the file.
DRIFTED = MULTIPLY_END.replace("return a * b", "return a * b  # product")


def worker_results(fake: FakeLLM) -> list[str]:
    """The tool results the last worker request carried, in order."""
    last = [r for r in fake.requests if str(r["messages"][0]["content"]).startswith(SYSTEM["worker"])][-1]
    return [str(m["content"]) for m in last["messages"] if m["role"] == "tool"]


def run(fake: FakeLLM, repo: Path, *worker: Reply, **settings: Any) -> api.RunResult:
    script_planning(fake)
    fake.on(SYSTEM["worker"], *worker)
    fake.on(SYSTEM["corrector"], Reply(content="I cannot fix it."))
    fake.on(SYSTEM["tester"], Reply(content="Nothing to test."))
    return api.run(
        "Add divide", repo, base_url=fake.url, model="qwen2.5-coder:7b", request_retries=0, max_retries=0, **settings
    )


def never_matching(repo: Path) -> list[Reply]:
    ops = (repo / OPS).read_text()
    whole = ops.replace(MULTIPLY_END, MULTIPLY_END + DIVIDE)
    without_subtract = whole[: whole.index("def subtract")] + whole[whole.index("def multiply") :]
    miss = Reply(tool_calls=[tool_call("ws_edit", path=OPS, old_str=DRIFTED, new_str=DRIFTED + DIVIDE)])
    return [
        Reply(tool_calls=[tool_call("ws_read", path=OPS)]),
        miss,
        miss,
        Reply(tool_calls=[tool_call("ws_write", path=OPS, content=without_subtract)]),
        Reply(tool_calls=[tool_call("ws_write", path=OPS, content=whole)]),
        Reply(content="Added divide."),
    ]


@pytest.mark.slow
def test_auto_offers_the_whole_file_after_two_misses_and_the_rewrite_solves_it(fake_llm: FakeLLM, repo: Path) -> None:
    before = (repo / OPS).read_text()
    run(fake_llm, repo, *never_matching(repo))
    results = worker_results(fake_llm)
    assert results[1].startswith(f"Error: old_str was not found in {OPS}. The closest lines are:")
    assert results[2].startswith(f"Error: old_str was not found in {OPS} (2 misses on this file). Rewrite the whole")
    assert results[2].endswith(before.rstrip("\n"))  # the current text, to rewrite from
    assert results[3] == (
        f"Error: not written: this rewrite of {OPS} drops subtract, which the task does not ask "
        "to remove. Write the whole file again with them kept."
    )
    assert results[4].startswith(f"overwrote {OPS}")
    after = (repo / OPS).read_text()
    assert "def divide" in after and "def subtract" in after


@pytest.mark.slow
def test_replace_never_offers_the_rewrite_and_the_file_stays(fake_llm: FakeLLM, repo: Path) -> None:
    before = (repo / OPS).read_text()
    run(fake_llm, repo, *never_matching(repo), edit_format="replace")
    results = worker_results(fake_llm)
    assert all("Rewrite the whole file" not in r for r in results)
    assert results[3].startswith(f"Error: {OPS} already exists; use ws_edit")
    assert results[4].startswith(f"Error: {OPS} already exists; use ws_edit")
    assert (repo / OPS).read_text() == before


@pytest.mark.slow
def test_an_edit_recalled_out_of_its_indentation_is_applied_reindented(fake_llm: FakeLLM, repo: Path) -> None:
    dedented = "\n".join(line.removeprefix("    ") for line in MULTIPLY_END.split("\n"))
    run(
        fake_llm,
        repo,
        Reply(tool_calls=[tool_call("ws_read", path=OPS)]),
        Reply(
            tool_calls=[tool_call("ws_edit", path=OPS, old_str=dedented, new_str=dedented.replace("a * b", "b * a"))]
        ),
        Reply(content="Swapped."),
    )
    result = worker_results(fake_llm)[1]
    assert "with its indentation shifted; new_str was applied there, re-indented the same way]" in result
    assert MULTIPLY_END.replace("a * b", "b * a") in (repo / OPS).read_text()
