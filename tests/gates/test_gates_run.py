"""The quality gates in real runs: the compiled graph over the scripted model server, on the calculator example.
Each gate fails a task whose worker left the defect it looks for, the corrector gets the gate's evidence and
fixes it, and the run ends done; a clean worker passes every gate on its first attempt; a gate switched off in
the quality block lets the same defect through."""

from __future__ import annotations

from pathlib import Path

from slmcode import api
from slmcode.nodes.prompts import SYSTEM
from slmcode.store.trace import TraceStore
from slmcode.trust import trust_workspace
from tests.fake_llm import FakeLLM, Reply, tool_call
from tests.graph.scenario import DIVIDE, MULTIPLY_END, TEST_DIVIDE, js, script_planning

MODULO_STUB = """

def modulo(a: float, b: float) -> float:
    pass  # TODO
"""
TEST_ANCHOR = "    assert ops.multiply(4, 3) == 12\n"
TESTED = "Tests pass."
# Selects divide's test only: exit 5 (no test) on the unchanged tree, so a pass tests the change (nodes.baseline).
CRITERIA = [{"text": "divide is tested", "priority": "must", "verify": "python -m pytest -q -k divide"}]


def quality(repo: Path, *, lint: str = "[]", gates: str = "") -> None:
    """The example's quality block with a lint command and a `gates:` mapping."""
    block = repo / ".slmcode" / "blocks" / "quality.yaml"
    text = block.read_text().replace("lint: []", f"lint: {lint}")
    block.write_text(text + (f"gates: {gates}\n" if gates else ""))
    trust_workspace(repo)  # the user changed their own block: a changed block asks for trust again


def run(fake: FakeLLM, repo: Path) -> api.RunResult:
    fake.on(SYSTEM["scope_judge"], js({"criteria": CRITERIA}))
    fake.on(
        SYSTEM["splitter"],
        js(
            {
                "tasks": [
                    {
                        "title": "Add divide",
                        "description": "Add divide(a, b) to calc/ops.py and a test in tests/test_ops.py",
                        "focus_files": ["calc/ops.py", "tests/test_ops.py"],
                        "criteria": CRITERIA,
                    }
                ]
            }
        ),
    )
    script_planning(fake)
    fake.on(
        SYSTEM["tester"],
        Reply(tool_calls=[tool_call("ws_shell", command="python -m pytest -q")]),
        Reply(content=TESTED),
    )
    return api.run("Add a divide operation", repo, base_url=fake.url, model="qwen2.5-coder:7b", request_retries=0)


def edit_ops(new_tail: str = DIVIDE) -> list[Reply]:
    return [
        Reply(tool_calls=[tool_call("ws_read", path="calc/ops.py")]),
        Reply(
            tool_calls=[tool_call("ws_edit", path="calc/ops.py", old_str=MULTIPLY_END, new_str=MULTIPLY_END + new_tail)]
        ),
    ]


def edit_test() -> list[Reply]:
    return [
        Reply(tool_calls=[tool_call("ws_read", path="tests/test_ops.py")]),
        Reply(
            tool_calls=[
                tool_call("ws_edit", path="tests/test_ops.py", old_str=TEST_ANCHOR, new_str=TEST_ANCHOR + TEST_DIVIDE)
            ]
        ),
    ]


def run_tests() -> Reply:
    return Reply(tool_calls=[tool_call("ws_shell", command="python -m pytest -q")])


def gates(result: api.RunResult) -> dict[str, str]:
    code = next(t for t in result.tasks if t.kind == "code")
    return {v.gate: v.status for v in code.verdicts if v.gate}


def corrector_opening(fake: FakeLLM) -> str:
    """The corrector's first request, as the model received it."""
    request = next(r for r in fake.requests if str(r["messages"][0]["content"]).startswith(SYSTEM["corrector"]))
    return "\n".join(str(m.get("content") or "") for m in request["messages"])


def gate_events(repo: Path, run_id: str, task_id: str, gate: str) -> list[str]:
    """The gate's verdicts on the task, as the trace recorded them."""
    return [
        e.data["status"]
        for e in TraceStore.for_workspace(repo).timeline(run_id)
        if e.kind == "verdict" and e.task_id == task_id and e.data.get("gate") == gate
    ]


def assert_corrected(result: api.RunResult, fake: FakeLLM, repo: Path, gate: str, evidence: str) -> None:
    code = next(t for t in result.tasks if t.kind == "code")
    assert result.outcome == "done", result.outcome
    assert code.attempts == 2 and gates(result)[gate] == "PASSED"
    assert evidence in corrector_opening(fake)
    assert gate_events(repo, result.run_id, code.id, gate) == ["FAILED", "PASSED"]


def test_a_clean_change_passes_every_gate_on_the_first_attempt(fake_llm: FakeLLM, repo: Path) -> None:
    quality(repo, lint='["ruff check ."]', gates="{lint: on}")
    fake_llm.on(
        SYSTEM["worker"],
        *edit_ops(),
        *edit_test(),
        run_tests(),
        Reply(content="Added divide and its test; all tests pass."),
    )
    result = run(fake_llm, repo)
    assert result.outcome == "done", result.outcome
    assert gates(result) == {
        "placeholder": "PASSED",
        "completeness": "PASSED",
        "claims": "PASSED",
        "lint": "PASSED",
        "smoke": "PASSED",
    }
    assert next(t for t in result.tasks if t.kind == "code").attempts == 1
    assert not any(str(r["messages"][0]["content"]).startswith(SYSTEM["corrector"]) for r in fake_llm.requests)


def test_a_todo_stub_fails_the_task_and_the_corrector_replaces_it(fake_llm: FakeLLM, repo: Path) -> None:
    fake_llm.on(SYSTEM["worker"], *edit_ops(DIVIDE + MODULO_STUB), *edit_test(), Reply(content="Added divide."))
    fake_llm.on(
        SYSTEM["corrector"],
        Reply(tool_calls=[tool_call("ws_read", path="calc/ops.py")]),
        Reply(
            tool_calls=[
                tool_call("ws_edit", path="calc/ops.py", old_str="    pass  # TODO\n", new_str="    return a % b\n")
            ]
        ),
        Reply(content="modulo returns a % b."),
    )
    result = run(fake_llm, repo)
    assert_corrected(
        result,
        fake_llm,
        repo,
        "placeholder",
        "placeholder left in added code: calc/ops.py:25 TODO comment `pass  # TODO`",
    )
    assert "return a % b" in (repo / "calc" / "ops.py").read_text()


def test_a_placeholder_gate_switched_off_lets_the_stub_through(fake_llm: FakeLLM, repo: Path) -> None:
    quality(repo, gates="{placeholder: off}")
    fake_llm.on(SYSTEM["worker"], *edit_ops(DIVIDE + MODULO_STUB), *edit_test(), Reply(content="Added divide."))
    result = run(fake_llm, repo)
    assert result.outcome == "done", result.outcome
    assert "placeholder" not in gates(result)
    assert "pass  # TODO" in (repo / "calc" / "ops.py").read_text()


def test_a_tests_pass_claim_without_a_test_run_is_backed_by_verifys_own_passing_run(
    fake_llm: FakeLLM, repo: Path
) -> None:
    # The model never ran the tests; verify did, on the finished work, and they passed: the claim is true, and a
    # correct task is not sent to the corrector for its words (the claim alone is never trusted: test_checks.py).
    fake_llm.on(SYSTEM["worker"], *edit_ops(), *edit_test(), Reply(content="Added divide; all tests pass."))
    result = run(fake_llm, repo)
    code = next(t for t in result.tasks if t.kind == "code")
    assert result.outcome == "done" and code.attempts == 1
    claim = next(v for v in code.verdicts if v.gate == "claims")
    assert claim.status == "PASSED" and "passed when verify ran it" in claim.evidence


def test_an_untouched_focus_file_fails_completeness_until_it_is_done(fake_llm: FakeLLM, repo: Path) -> None:
    fake_llm.on(SYSTEM["worker"], *edit_ops(), Reply(content="Added divide."))
    fake_llm.on(SYSTEM["corrector"], *edit_test(), Reply(content="Added its test."))
    result = run(fake_llm, repo)
    assert_corrected(
        result, fake_llm, repo, "completeness", "focus file(s) not touched and not explained: tests/test_ops.py"
    )
    assert "test_divide" in (repo / "tests" / "test_ops.py").read_text()


def test_a_module_that_does_not_compile_fails_the_smoke_check(fake_llm: FakeLLM, repo: Path) -> None:
    broken = "def percent(a, b:\n    return a / b * 100\n"
    fake_llm.on(
        SYSTEM["worker"],
        *edit_ops(),
        *edit_test(),
        Reply(tool_calls=[tool_call("ws_write", path="calc/percent.py", content=broken)]),
        Reply(content="Added divide, its test and percent."),
    )
    fake_llm.on(
        SYSTEM["corrector"],
        Reply(tool_calls=[tool_call("ws_read", path="calc/percent.py")]),
        Reply(tool_calls=[tool_call("ws_edit", path="calc/percent.py", old_str="(a, b:", new_str="(a, b):")]),
        Reply(content="Fixed the signature."),
    )
    result = run(fake_llm, repo)
    assert_corrected(
        result, fake_llm, repo, "smoke", "`python -m py_compile calc/ops.py calc/percent.py tests/test_ops.py` exited 1"
    )
    assert "SyntaxError" in corrector_opening(fake_llm)


def test_a_lint_finding_in_the_changed_code_fails_the_lint_gate(fake_llm: FakeLLM, repo: Path) -> None:
    quality(repo, lint='["ruff check ."]', gates="{lint: on}")
    unused = '"""Arithmetic operations."""\n'
    fake_llm.on(
        SYSTEM["worker"],
        *edit_ops(),
        *edit_test(),
        Reply(
            tool_calls=[tool_call("ws_edit", path="calc/ops.py", old_str=unused, new_str=unused + "\nimport math\n")]
        ),
        Reply(content="Added divide."),
    )
    fake_llm.on(
        SYSTEM["corrector"],
        Reply(tool_calls=[tool_call("ws_read", path="calc/ops.py")]),
        Reply(tool_calls=[tool_call("ws_edit", path="calc/ops.py", old_str="\nimport math\n", new_str="")]),
        Reply(content="Removed the unused import."),
    )
    result = run(fake_llm, repo)
    assert_corrected(result, fake_llm, repo, "lint", "`ruff check calc/ops.py tests/test_ops.py` exited 1")
    assert "F401" in corrector_opening(fake_llm)
