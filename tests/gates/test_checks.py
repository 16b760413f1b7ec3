"""Each gate's check on real text: a change that leaves a stub, skips a file, claims an unseen pass, breaks the
linter or the compiler fails; the same change done properly passes; code that was there before is not judged."""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from slmcode.config import Settings
from slmcode.gates import (
    Edit,
    ShellRun,
    TaskRecord,
    check_claims,
    check_completeness,
    check_lint,
    check_placeholders,
    check_smoke,
    task_record,
)
from tests.graph.scenario import python_on_path

OPS = '''def add(a, b):
    """Return a plus b."""
    return a + b
'''


def _added(new_tail: str, before: str = OPS) -> tuple[dict[str, str], list[Edit]]:
    """The file after an edit appended `new_tail`, and the edit."""
    return {"ops.py": before + new_tail}, [Edit("ops.py", before, before + new_tail)]


@pytest.mark.parametrize(
    "tail, found",
    [
        ("\n\ndef divide(a, b):\n    pass  # TODO\n", "ops.py:7 TODO comment `pass  # TODO`"),
        ("\n\ndef divide(a, b):\n    ...\n", "ops.py:7 `divide` has an empty body"),
        ('\n\ndef divide(a, b):\n    """Divide."""\n', "ops.py:7 `divide` has an empty body"),
        ("\n\ndef divide(a, b):\n    raise NotImplementedError\n", "ops.py:7 not implemented"),
        ("\n\ndef divide(a, b):\n    # your code here\n    return 0\n", "ops.py:7 stub note"),
        ("\n\ndef divide(a, b):\n    return a / b  # FIXME: zero\n", "ops.py:7 FIXME comment"),
    ],
)
def test_a_stub_in_the_added_lines_fails_the_placeholder_gate(tail: str, found: str) -> None:
    verdict = check_placeholders(*_added(tail))
    assert verdict is not None and verdict.status == "FAILED"
    assert found in verdict.evidence


def test_a_real_body_passes_and_a_todo_that_was_there_before_is_not_the_tasks() -> None:
    before = "# TODO: support complex numbers\ndef old():\n    pass\n" + OPS
    verdict = check_placeholders(*_added("\n\ndef divide(a, b):\n    return a / b\n", before))
    assert verdict is not None and verdict.status == "PASSED", verdict


def test_abstract_methods_overloads_and_protocols_keep_their_stub_bodies() -> None:
    tail = """

class Shape(Protocol):
    def area(self) -> float: ...


class Base(ABC):
    @abstractmethod
    def run(self) -> None:
        raise NotImplementedError
"""
    verdict = check_placeholders(*_added(tail))
    assert verdict is not None and verdict.status == "PASSED", verdict


def test_a_todo_a_later_edit_removed_is_not_reported() -> None:
    first = Edit("ops.py", OPS, OPS + "\n\ndef divide(a, b):\n    pass  # TODO\n")
    fixed = Edit("ops.py", "    pass  # TODO\n", "    return a / b\n")
    text = OPS + "\n\ndef divide(a, b):\n    return a / b\n"
    verdict = check_placeholders({"ops.py": text}, [first, fixed])
    assert verdict is not None and verdict.status == "PASSED"


def test_other_languages_get_the_comment_markers_and_their_own_not_implemented() -> None:
    go = {"main.go": "package main\n\nfunc Div() int {\n\t// TODO handle zero\n\treturn 0\n}\n"}
    rust = {"lib.rs": "pub fn div() -> i32 {\n    todo!()\n}\n"}
    for texts in (go, rust):
        path, text = next(iter(texts.items()))
        verdict = check_placeholders(texts, [Edit(path, "", text)])
        assert verdict is not None and verdict.status == "FAILED", verdict
    todo_app = {"app.js": 'const state = "TODO";\n'}
    verdict = check_placeholders(todo_app, [Edit("app.js", "", todo_app["app.js"])])
    assert verdict is not None and verdict.status == "PASSED"  # a word in a string is not a comment marker


def test_completeness_fails_for_an_untouched_focus_file_unless_the_worker_names_it() -> None:
    focus = ["calc/ops.py", "tests/test_ops.py"]
    failed = check_completeness(focus, ["calc/ops.py"], "Added divide.")
    assert failed is not None and failed.status == "FAILED"
    assert failed.evidence == "focus file(s) not touched and not explained: tests/test_ops.py"
    explained = check_completeness(focus, ["calc/ops.py"], "Added divide; test_ops.py already covers it.")
    assert explained is not None and explained.status == "PASSED"
    assert "explained tests/test_ops.py" in explained.evidence
    whole = check_completeness(["./calc/", "tests/test_ops.py"], ["calc/ops.py", "tests/test_ops.py"], "")
    assert whole is not None and whole.status == "PASSED"
    assert check_completeness([], ["calc/ops.py"], "") is None
    # a task that names the harness's own files (its offloaded text) is not asked to edit them
    assert check_completeness([".slmcode/scratch/run-1/task.md"], ["calc/ops.py"], "") is None


EDIT = Edit("ops.py", "a", "b")


@pytest.mark.parametrize(
    "steps, status, words",
    [
        ((EDIT,), "FAILED", "no test command ran after the last edit"),
        ((ShellRun("python -m pytest -q", 0), EDIT), "FAILED", "no test command ran after the last edit"),
        ((EDIT, ShellRun("python -m pytest -q", 1)), "FAILED", "`python -m pytest -q` exited 1"),
        ((EDIT, ShellRun("ls", 0)), "FAILED", "no test command ran"),
        ((EDIT, ShellRun("python -m pytest -q", 0)), "PASSED", "`python -m pytest -q` exited 0 after the last edit"),
        ((EDIT, ShellRun("make check", 0)), "PASSED", "`make check` exited 0"),  # the quality block's test command
    ],
)
def test_a_claim_that_the_tests_pass_needs_a_passing_run_after_the_last_edit(steps, status, words) -> None:  # type: ignore[no-untyped-def]
    verdict = check_claims(TaskRecord(steps, "Done: all tests pass."), ["make check"])
    assert verdict is not None and verdict.status == status and words in verdict.evidence, verdict


def test_a_claim_the_verify_phases_own_run_proves_is_not_failed_for_its_words() -> None:
    # The model claimed without running the tests; verify ran them on the finished work and they PASSED.
    backed = check_claims(TaskRecord((EDIT,), "Done: all tests pass."), ["cargo test"], ["cargo test"])
    assert (
        backed is not None and backed.status == "PASSED" and "`cargo test` passed when verify ran it" in backed.evidence
    )
    # A passing command that runs no tests backs nothing.
    unbacked = check_claims(TaskRecord((EDIT,), "Done: all tests pass."), ["cargo test"], ["cargo build"])
    assert unbacked is not None and unbacked.status == "FAILED"


def test_no_claim_no_claims_verdict() -> None:
    for message in (
        "Added divide.",
        "The tests do not pass yet.",
        "Tests fail on divide by zero.",
        "Not all tests pass: divide by zero still fails.",
    ):
        assert check_claims(TaskRecord((EDIT,), message), []) is None


def test_the_record_reads_edits_and_exit_codes_off_the_transcript() -> None:
    calls = [
        {"id": "1", "name": "ws_edit", "args": {"path": "./ops.py", "old_str": "a", "new_str": "b"}},
        {"id": "2", "name": "ws_shell", "args": {"command": "pytest -q"}},
        {"id": "3", "name": "ws_edit", "args": {"path": "ops.py", "old_str": "zz", "new_str": "y"}},
    ]
    messages = [
        HumanMessage("go"),
        AIMessage("", tool_calls=calls),
        ToolMessage("edited ops.py", tool_call_id="1", artifact={"path": "ops.py"}),
        ToolMessage("$ pytest -q\n1 passed\n[exit code 0]", tool_call_id="2"),
        ToolMessage("Error: old_str not found", tool_call_id="3", status="error"),
        AIMessage("Tests pass."),
    ]
    record = task_record([messages])
    assert record.steps == (Edit("ops.py", "a", "b"), ShellRun("pytest -q", 0))
    assert record.final_message == "Tests pass."


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PATH", python_on_path())
    (tmp_path / "good.py").write_text(OPS)
    (tmp_path / "broken.py").write_text("def divide(a, b:\n    return a / b\n")
    (tmp_path / "unused.py").write_text("import os\n")
    return tmp_path


def test_smoke_compiles_the_changed_modules_in_the_sandbox(project: Path) -> None:
    passed = check_smoke(project, Settings(), ["good.py", "README.md"])
    assert passed is not None and passed.status == "PASSED"
    assert passed.evidence == "`python -m py_compile good.py` exited 0"
    failed = check_smoke(project, Settings(), ["good.py", "broken.py"])
    assert failed is not None and failed.status == "FAILED" and "SyntaxError" in failed.evidence
    assert not list(project.rglob("__pycache__"))  # the bytecode went to the sandbox's scratch folder
    assert check_smoke(project, Settings(), ["README.md"]) is None


def test_lint_runs_the_packs_linter_over_the_changed_files_only(project: Path) -> None:
    failed = check_lint(project, Settings(), ["ruff check ."], ["unused.py"])
    assert failed is not None and failed.status == "FAILED"
    assert failed.evidence.startswith("`ruff check unused.py` exited 1") and "F401" in failed.evidence
    passed = check_lint(project, Settings(), ["ruff check ."], ["good.py"])  # unused.py is not this task's
    assert passed is not None and passed.status == "PASSED"


def test_lint_without_a_linter_is_unverified_not_passed(project: Path) -> None:
    missing = check_lint(project, Settings(), ["no-such-linter ."], ["good.py"])
    assert missing is not None and missing.status == "UNVERIFIED" and "not installed" in missing.evidence
    none = check_lint(project, Settings(), [], ["good.py"])
    assert none is not None and none.status == "UNVERIFIED" and "no lint command" in none.evidence
