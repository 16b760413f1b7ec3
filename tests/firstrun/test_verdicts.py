"""The verdict table and the outcome line tell the truth: a check the unchanged tree already passes proves
nothing about a change, a failed task says why, and a failed run teaches MEMORY.md nothing."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from slmcode import api
from slmcode.memory.flywheel import read_memory
from slmcode.nodes.prompts import SYSTEM
from tests.fake_llm import FakeLLM, Reply, tool_call
from tests.graph.scenario import divide_worker_replies, js, make_repo, script_planning

SPECIFIC = "python -m pytest -q -k divide"  # selects no test before the change: exit 5, a real test of it


def run(fake: FakeLLM, repo: Path) -> api.RunResult:
    return api.run(
        "Add a divide operation", repo, base_url=fake.url, model="qwen2.5-coder:7b", request_retries=0, max_retries=0
    )


def test_a_check_the_unchanged_tree_passes_is_unverified_and_the_outcome_says_no_edit_was_made(
    fake_llm: FakeLLM, repo: Path
) -> None:
    script_planning(fake_llm)  # its criterion: `python -m pytest -q`, which passes before any edit
    fake_llm.on(SYSTEM["worker"], Reply(content="Done."))
    fake_llm.on(SYSTEM["corrector"], Reply(content="Done."))
    fake_llm.on(SYSTEM["tester"], Reply(content="Done."))
    result = run(fake_llm, repo)
    code = next(t for t in result.tasks if t.kind == "code")
    assert [v.status for v in code.verdicts if v.gate is None] == ["UNVERIFIED"]
    assert code.verdicts[0].evidence.startswith("not a test of this change (passes on the unchanged tree)")
    assert not result.ok
    assert f"task {code.id} 'Add divide'" in result.outcome and "no edit made" in result.outcome
    assert "criteria unverified: 'the tests pass' (not a test of this change" in result.outcome
    # a failed run writes no lesson (the scripted learn role would have offered one)
    assert read_memory(repo).lessons == []


def test_a_check_that_fails_before_the_change_passes_after_it_and_teaches_a_grounded_lesson(
    fake_llm: FakeLLM, repo: Path
) -> None:
    criteria = [{"text": "divide is tested", "priority": "must", "verify": SPECIFIC}]
    fake_llm.on(SYSTEM["scope_judge"], js({"criteria": criteria}))
    fake_llm.on(
        SYSTEM["splitter"],
        js(
            {
                "tasks": [
                    {
                        "title": "Add divide",
                        "description": "Add divide(a, b) to calc/ops.py and a test in tests/test_ops.py",
                        "focus_files": ["calc/ops.py", "tests/test_ops.py"],
                        "criteria": criteria,
                    }
                ]
            }
        ),
    )
    fake_llm.on(
        SYSTEM["learn"],
        js(
            {
                "lessons": [
                    "The 3 short lessons you requested.",
                    "Run python -m pytest -q -k NAME to check one operation.",
                    "Write good code.",
                ]
            }
        ),
    )
    script_planning(fake_llm)
    fake_llm.on(SYSTEM["worker"], *divide_worker_replies())
    fake_llm.on(
        SYSTEM["tester"],
        Reply(tool_calls=[tool_call("ws_shell", command="python -m pytest -q")]),
        Reply(content="Tests pass."),
    )
    result = run(fake_llm, repo)
    code = next(t for t in result.tasks if t.kind == "code")
    assert [v.status for v in code.verdicts if v.gate is None] == ["PASSED"], code.verdicts
    assert result.outcome == "done", result.outcome
    # only the lesson about this repository's commands is kept: no schema echo, no empty advice
    assert read_memory(repo).lessons == ["Run python -m pytest -q -k NAME to check one operation."]


def test_a_check_whose_interpreter_lacks_pytest_says_what_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from slmcode.config import Settings
    from slmcode.nodes.baseline import missing_tool
    from slmcode.state import Criterion
    from slmcode.tools.criteria import run_criteria

    bare = Path("/usr/bin/python3")
    if not bare.exists() or subprocess.run([bare, "-c", "import pytest"], capture_output=True).returncode == 0:
        pytest.skip("needs a system python3 without pytest")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(bare)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    repo = make_repo(tmp_path)
    criterion = Criterion(text="the tests pass", verify="python -m pytest -q")
    verdicts = missing_tool(
        run_criteria([criterion], workspace=repo, settings=Settings(), allowed_commands=["python -m pytest -q"])
    )
    assert verdicts[0].status == "UNVERIFIED"
    assert verdicts[0].evidence.startswith("nothing was tested: `python` on PATH has no module pytest")


def test_what_the_tests_leave_behind_is_no_change_of_the_task(fake_llm: FakeLLM, repo: Path) -> None:
    """A test run's caches (__pycache__, .pytest_cache; cargo's target/ likewise) are not the task's files: listed,
    they crowd the reviewer's evidence, and one the next build removes reads as 'claimed changes missing on disk'."""
    # A test that leaves build output as `cargo test` does (target/ is not in this repository's .gitignore).
    (repo / "tests" / "test_build.py").write_text(
        "from pathlib import Path\n\n\ndef test_build() -> None:\n"
        "    Path('target/debug').mkdir(parents=True, exist_ok=True)\n"
        "    Path('target/debug/.fingerprint').write_text('built')\n"
    )
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "build"], cwd=repo, check=True)
    script_planning(fake_llm)
    *edits, last = divide_worker_replies()
    fake_llm.on(
        SYSTEM["worker"],
        *edits,
        Reply(tool_calls=[tool_call("ws_shell", command="python -m pytest -q")]),
        last,
    )
    fake_llm.on(SYSTEM["tester"], Reply(content="Tests pass."))
    result = run(fake_llm, repo)
    code = next(t for t in result.tasks if t.kind == "code")
    assert code.files_changed == ["calc/ops.py", "tests/test_ops.py"], code.files_changed
