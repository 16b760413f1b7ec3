"""The reviewer's disk evidence, through the real graph and the scripted server. A worker's build or test command
leaves outputs in a workspace that does not ignore them (a `cargo test` with no .gitignore leaves target/ and
Cargo.lock): they are nobody's change and stay out of the task's files and the reviewer's "Files changed". And
however many real files a task changed, the evidence is fitted to the reviewer's room: the request is sent."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from slmcode import api
from slmcode.nodes.prompts import EVIDENCE_BINARY, EVIDENCE_NEW, EVIDENCE_UNSHOWN, SYSTEM
from tests.fake_llm import FakeLLM, Reply, request_text, system_text, tool_call
from tests.graph.scenario import DIVIDE, MULTIPLY_END, script_planning
from tests.snapshot import assert_snapshot

# A test the worker writes: run by `python -m pytest`, it leaves what a build leaves (a target/ tree of binary
# objects, a lock file) or, with NOTES, many real text files the task made.
BUILD_LITTER = """
from pathlib import Path

def test_builds() -> None:
    for n in range(40):
        out = Path("target/debug/deps") / f"calc-{n}.rlib"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(bytes(range(256)) * 20)
    Path("Cargo.lock").write_text("# generated\\n" + "[[package]]\\nname = 'x'\\n" * 200)
"""
NOTES = """
from pathlib import Path

def test_notes() -> None:
    for n in range(45):
        out = Path("notes") / f"note_{n:02}.md"
        out.parent.mkdir(exist_ok=True)
        out.write_text("".join(f"Note {n}, line {i}: the divide operation rounds towards zero.\\n" for i in range(60)))
"""


def script(fake: FakeLLM, test_file: str) -> None:
    """A task with an unverified criterion, so the reviewer model is asked; its worker adds divide, writes
    `test_file` as tests/test_build.py and runs the tests."""
    unverified = [{"text": "divide is correct", "priority": "must", "verify": None}]
    fake.on(SYSTEM["scope_judge"], json.dumps({"criteria": unverified}))
    task = {"title": "Add divide", "description": "Add divide(a, b) to calc/ops.py", "focus_files": ["calc/ops.py"]}
    fake.on(SYSTEM["splitter"], json.dumps({"tasks": [{**task, "criteria": unverified}]}))
    script_planning(fake)
    fake.on(
        SYSTEM["worker"],
        Reply(tool_calls=[tool_call("ws_read", path="calc/ops.py")]),
        Reply(
            tool_calls=[tool_call("ws_edit", path="calc/ops.py", old_str=MULTIPLY_END, new_str=MULTIPLY_END + DIVIDE)]
        ),
        Reply(tool_calls=[tool_call("ws_write", path="tests/test_build.py", content=test_file)]),
        Reply(tool_calls=[tool_call("ws_shell", command="python -m pytest -q")]),
        Reply(content="Added divide."),
    )
    fake.on(SYSTEM["tester"], Reply(content="Nothing to test."))


def reviews_of_divide(fake: FakeLLM) -> list[str]:
    """The reviewer requests about the worker's task, as text."""
    texts = [request_text(r) for r in fake.requests if system_text(r).startswith(SYSTEM["reviewer"])]
    return [t for t in texts if "Task: Add divide" in t]


def evidence_of(review: str) -> str:
    return review.split("Files changed, as on disk:", 1)[1].split("Approve or reject.", 1)[0]


def run(fake: FakeLLM, repo: Path) -> api.RunResult:
    return api.run(
        "Add divide",
        repo,
        base_url=fake.url,
        model="qwen2.5-coder:7b",
        request_retries=0,
        max_retries=0,
        git_mode="off",
    )


def test_what_a_build_leaves_is_no_change_and_stays_out_of_the_review(fake_llm: FakeLLM, repo: Path) -> None:
    script(fake_llm, BUILD_LITTER)
    result = run(fake_llm, repo)
    untracked = subprocess.run(["git", "status", "--porcelain"], cwd=repo, capture_output=True, text=True).stdout
    assert "target/" in untracked and "Cargo.lock" in untracked  # the command did leave them
    (review,) = reviews_of_divide(fake_llm)
    evidence = evidence_of(review)
    assert "calc/ops.py" in evidence and "a / b" in evidence  # the change itself is shown
    assert "calc-0.rlib" not in evidence  # (the test that made them is shown: it is the task's file)
    assert not [line for line in evidence.splitlines() if line.startswith(("target/", "Cargo.lock"))]
    worker_last = [r for r in fake_llm.requests if str(r["messages"][0]["content"]).startswith(SYSTEM["worker"])][-1]
    shell_result = str(worker_last["messages"][-1]["content"])
    assert "passed" in shell_result  # nor told to the model as its change
    assert "calc-0.rlib" not in shell_result and "Cargo.lock" not in shell_result
    assert "reviewer: r1t1 done" in result.work_log, result.outcome


def test_many_changed_files_are_fitted_to_the_reviewers_room(fake_llm: FakeLLM, repo: Path) -> None:
    script(fake_llm, NOTES)
    result = run(fake_llm, repo)
    (review,) = reviews_of_divide(fake_llm)  # sent: no request over the prompt limit stopped the run
    evidence = evidence_of(review)
    assert "calc/ops.py" in evidence and "a / b" in evidence
    assert "notes/note_00.md" in evidence and "notes/note_44.md" in evidence  # every changed file is named
    assert "reviewer: r1t1 done" in result.work_log, result.outcome


def test_the_evidence_texts() -> None:
    assert_snapshot(
        "review_evidence.txt",
        f"new: {EVIDENCE_NEW}\nbinary: {EVIDENCE_BINARY}\nunshown: {EVIDENCE_UNSHOWN}\n",
    )
