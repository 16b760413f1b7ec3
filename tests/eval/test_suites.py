"""The standard suites' adapters on small synthetic instances built here (never copies of the benchmarks): a
two-exercise tree in the polyglot benchmark's layout, and a tiny git repository with SWE-bench-format lines.
Whole runs go through the real pipeline with the scripted server making the right (or a wrong) edit."""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest

from slmcode.errors import SlmcodeError
from slmcode.eval.replay import role_prompt
from slmcode.eval.suites import polyglot, swebench
from slmcode.eval.suites.items import narrow, swebench_items
from slmcode.eval.suites.polyglot import copy_exercise, load_polyglot, restore_tests
from slmcode.eval.suites.swegrade import PYTEST, grade_instance, statuses
from slmcode.tools.shell import plan
from slmcode.tools.whitelist import build_whitelist
from tests.eval.conftest import slmcode
from tests.fake_llm import FakeLLM, Reply, request_text, tool_call

RETRY_MARK = "The test errors are shown above."

# --- a synthetic polyglot tree -----------------------------------------------------------------------------------
STUBS = {
    "alpha": ("def double(n):\n    pass\n", "def double(n):\n    return n * 2\n", "def double(n):\n    return n + 2\n"),
    "beta": (
        "def shout(s):\n    pass\n",
        "def shout(s):\n    return s.upper() + '!'\n",
        "def shout(s):\n    return s.upper()\n",
    ),
}
TESTS = {
    "alpha": "from alpha import double\n\n\ndef test_double():\n    assert double(5) == 10\n",
    "beta": "from beta import shout\n\n\ndef test_shout():\n    assert shout('hi') == 'HI!'\n",
}


def make_polyglot(root: Path) -> Path:
    for name, (stub, right, _wrong) in STUBS.items():
        ex = root / "python" / "exercises" / "practice" / name
        (ex / ".docs").mkdir(parents=True)
        (ex / ".meta").mkdir()
        (ex / ".docs" / "instructions.md").write_text(f"# {name}\n\nEXERCISE-{name.upper()}: make the test pass.\n")
        (ex / ".docs" / "instructions.append.md").write_text("\nAppended note.\n")
        (ex / ".meta" / "config.json").write_text(
            json.dumps(
                {"files": {"solution": [f"{name}.py"], "test": [f"{name}_test.py"], "example": [".meta/example.py"]}}
            )
        )
        (ex / ".meta" / "example.py").write_text(right)
        (ex / f"{name}.py").write_text(stub)
        (ex / f"{name}_test.py").write_text(TESTS[name])
    return root


def test_an_exercise_becomes_aiders_prompt_and_a_workspace_without_the_reference(tmp_path: Path) -> None:
    exercises = load_polyglot(make_polyglot(tmp_path / "bench"))
    assert [e.id for e in exercises] == ["python/alpha", "python/beta"]
    alpha = exercises[0]
    assert alpha.prompt.startswith("# alpha") and "Appended note." in alpha.prompt
    assert "change these files: alpha.py" in alpha.prompt
    workspace = copy_exercise(alpha, tmp_path / "ws")
    assert sorted(p.name for p in workspace.iterdir()) == [".docs", "alpha.py", "alpha_test.py"]  # no .meta
    (workspace / "alpha_test.py").write_text("def test_nothing():\n    pass\n")  # an agent weakening the test
    restore_tests(alpha, workspace)
    assert (workspace / "alpha_test.py").read_text() == TESTS["alpha"]
    retry = alpha.retry_prompt("E   assert None == 10")
    assert retry.startswith(alpha.prompt) and "assert None == 10" in retry and RETRY_MARK in retry


def test_a_folder_without_the_layout_or_a_broken_config_is_one_line_naming_it(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(SlmcodeError, match="no <language>/exercises/practice/<exercise>/ folders"):
        load_polyglot(tmp_path / "empty")
    with pytest.raises(SlmcodeError, match="not a folder"):
        load_polyglot(tmp_path / "nowhere")
    bench = make_polyglot(tmp_path / "bench")
    config = bench / "python" / "exercises" / "practice" / "beta" / ".meta" / "config.json"
    config.write_text('{\n  "files": {\n    "solution": [beta.py]\n  }\n}\n')
    with pytest.raises(SlmcodeError) as caught:
        load_polyglot(bench)
    assert str(caught.value).startswith(f"{config}:3: not valid JSON")
    config.write_text('{"files": {"solution": ["beta.py"]}}')
    with pytest.raises(SlmcodeError, match=r"config.json: needs \"files\""):
        load_polyglot(bench)


@pytest.mark.parametrize("language", sorted(polyglot.TEST_COMMANDS))
def test_each_languages_grading_command_is_one_the_sandbox_runs(language: str, tmp_path: Path) -> None:
    command = polyglot.TEST_COMMANDS[language]
    plan(tmp_path, command.command, build_whitelist(command.allowed))  # a refusal raises


def test_swebench_test_ids_are_passed_quoted_and_the_sandbox_runs_them(tmp_path: Path) -> None:
    ids = ["tests/test_x.py::test_a[1 2]", "tests/test_x.py::T::test_b"]
    plan(tmp_path, " ".join([PYTEST, "-rA", *map(shlex.quote, ids)]), build_whitelist([PYTEST]))
    summary = "PASSED tests/test_x.py::test_a[1 2]\nFAILED tests/test_x.py::T::test_b - assert 1 == 2\n"
    assert statuses(summary) == {ids[0]: "PASSED", ids[1]: "FAILED"}


def test_a_language_without_a_test_command_here_is_skipped_with_the_reason() -> None:
    assert polyglot.missing_toolchain("python") is None
    assert "no test command for cobol" in str(polyglot.missing_toolchain("cobol"))


# --- a synthetic SWE-bench repository ----------------------------------------------------------------------------
BUGGY = "def add(a, b):\n    return a - b\n"
FIXED = "def add(a, b):\n    return a + b\n"
WRONG = "def add(a, b):\n    return a * b\n"
TEST_BASE = "from calc import add\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n"
TEST_NEW = TEST_BASE + "\n\ndef test_add():\n    assert add(2, 3) == 5\n"


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout


def make_clone(repos: Path) -> tuple[Path, str, str]:
    """acme__calc with a bug at its base commit and a later commit; the test patch that shows the bug."""
    clone = repos / "acme__calc"
    (clone / "tests").mkdir(parents=True)
    (clone / "calc.py").write_text(BUGGY)
    (clone / "tests" / "test_calc.py").write_text(TEST_BASE)
    _git(clone, "init", "-q")
    _git(clone, "add", "-A")
    _git(clone, "commit", "-qm", "base")
    base = _git(clone, "rev-parse", "HEAD").strip()
    (clone / "tests" / "test_calc.py").write_text(TEST_NEW)
    patch = _git(clone, "diff")
    _git(clone, "checkout", "-q", "--", ".")
    (clone / "later.py").write_text("LATER = 1\n")
    _git(clone, "add", "-A")
    _git(clone, "commit", "-qm", "later")
    return clone, base, patch


def instance_line(instance_id: str, base: str, patch: str, repo: str = "acme/calc", **extra: Any) -> str:
    return json.dumps(
        {
            "instance_id": instance_id,
            "repo": repo,
            "base_commit": base,
            "problem_statement": f"{instance_id.upper()}: add(2, 3) returns -1; it must return 5.",
            "FAIL_TO_PASS": json.dumps(["tests/test_calc.py::test_add"]),
            "PASS_TO_PASS": ["tests/test_calc.py::test_zero"],
            "test_patch": patch,
            "version": "0.1",
            **extra,
        }
    )


def test_a_malformed_line_names_the_file_and_the_line(tmp_path: Path) -> None:
    path = tmp_path / "instances.jsonl"
    path.write_text(instance_line("acme__calc-1", "abc", "diff") + "\n\n{not json\n")
    with pytest.raises(SlmcodeError) as caught:
        swebench.load_instances(path)
    assert str(caught.value).startswith(f"{path}:3: not valid JSON")
    path.write_text(json.dumps({"instance_id": "x", "repo": "acme/calc"}) + "\n")
    with pytest.raises(SlmcodeError, match=r"instances.jsonl:1: missing base_commit, problem_statement"):
        swebench.load_instances(path)


def test_an_instance_is_resolved_only_when_its_tests_pass_after_the_test_patch(tmp_path: Path, on_path: None) -> None:
    clone, base, patch = make_clone(tmp_path / "repos")
    instance = swebench.parse_instance(instance_line("acme__calc-1", base, patch), "line 1")
    for code, resolved in ((BUGGY, False), (FIXED, True)):
        workspace = swebench.checkout(clone, base, tmp_path / f"ws-{resolved}")
        assert not (workspace / "later.py").exists()  # at the base commit, not the clone's head
        (workspace / "calc.py").write_text(code)
        (workspace / "tests" / "test_calc.py").write_text("def test_add():\n    pass\n")  # patched back over
        verdict = grade_instance(instance, workspace)
        assert verdict.resolved is resolved, verdict.output
        assert verdict.fail_to_pass == {"tests/test_calc.py::test_add": resolved}
        assert verdict.pass_to_pass == {"tests/test_calc.py::test_zero": True}


def test_a_missing_clone_or_commit_skips_the_instance_with_one_line(tmp_path: Path) -> None:
    _clone, base, patch = make_clone(tmp_path / "repos")
    path = tmp_path / "instances.jsonl"
    path.write_text(
        "\n".join(
            [
                instance_line("acme__calc-1", base, patch),
                instance_line("other__lib-2", base, patch, repo="other/lib"),
                instance_line("acme__calc-3", "f" * 40, patch),
            ]
        )
        + "\n"
    )
    chosen = swebench_items(path, tmp_path / "repos")
    assert [i.id for i in chosen.items] == ["acme__calc-1"] and chosen.total == 3
    assert chosen.skipped["other__lib-2"].startswith("no clone of other/lib (looked for ")
    assert "has no commit ffffffffffff" in chosen.skipped["acme__calc-3"]
    # --task / --tasks: the rate is over the items picked, not the whole file
    assert narrow(chosen, item_id="acme__calc-1", count=None).total == 1
    with pytest.raises(SlmcodeError, match="no item 'other__lib-2' to run: no clone of other/lib"):
        narrow(chosen, item_id="other__lib-2", count=None)


# --- whole runs through the pipeline -----------------------------------------------------------------------------
def scripted_model(fake: FakeLLM, edit: Any) -> FakeLLM:
    """Every phase answers briefly; the worker reads the file `edit(text)` names, rewrites it, and stops.
    `edit(request text)` -> (path, old, new)."""
    answers = {
        "clarify": {"requirements": ["make the change"], "questions": []},
        "scope_judge": {"criteria": [{"text": "the change is made", "priority": "must"}]},
        "planner": {"steps": [{"step": "Make the change", "files": []}]},
        "reviewer": {"approve": True, "notes": []},
        "escalate": {"decision": "give_up", "guidance": ""},
        "learn": {"lessons": []},
    }
    for role, answer in answers.items():
        fake.on(role_prompt(role), Reply(content=json.dumps(answer)))

    def splitter(request: dict[str, Any]) -> Reply:
        path = edit(request_text(request))[0]
        task = {
            "title": "Make the change",
            "description": f"Change {path}.",
            "focus_files": [path],
            "criteria": [{"text": "the change is made", "priority": "must"}],
        }
        return Reply(content=json.dumps({"tasks": [task]}))

    def worker(request: dict[str, Any]) -> Reply:
        path, old, new = edit(request_text(request))
        done = sum(m.get("role") == "tool" for m in request["messages"])
        if done == 0:
            return Reply(tool_calls=[tool_call("ws_read", path=path)])
        if done == 1:
            return Reply(tool_calls=[tool_call("ws_edit", path=path, old_str=old, new_str=new)])
        return Reply(content="Done.")

    fake.on(role_prompt("splitter"), splitter)
    fake.on(role_prompt("worker"), worker)
    fake.on(role_prompt("tester"), Reply(content="Checked."))
    fake.on(role_prompt("corrector"), Reply(content="Nothing to correct."))
    return fake


@pytest.mark.slow
def test_polyglot_reports_pass_at_1_and_pass_at_2_by_language(tmp_path: Path) -> None:
    bench = make_polyglot(tmp_path / "bench")

    def edit(text: str) -> tuple[str, str, str]:
        # alpha is right at once; beta is wrong until the prompt carries the failing tests' output.
        name = "alpha" if "EXERCISE-ALPHA" in text else "beta"
        stub, right, wrong = STUBS[name]
        retried = RETRY_MARK in text and "assert 'HI' == 'HI!'" in text
        if name == "alpha":
            return "alpha.py", stub, right
        return "beta.py", *((wrong, right) if retried else (stub, wrong))  # the retry edits its first answer

    with scripted_model(FakeLLM(models=["qwen2.5-coder:7b"]), edit) as fake:
        result = slmcode(
            "eval",
            "--suite",
            "polyglot",
            str(bench),
            "--json",
            "--jobs",
            "2",
            "--base-url",
            fake.url,
            "--model",
            "qwen2.5-coder:7b",
            "--out",
            str(tmp_path / "out"),
            cwd=tmp_path,
        )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    attempts = {a["id"]: a for a in data["attempts"]}
    assert attempts["python/alpha"]["tries"] == [True]
    assert attempts["python/beta"]["tries"] == [False, True]  # solved by the second try, which saw the failure
    assert attempts["python/beta"]["files_changed"] == ["beta.py"] and attempts["python/beta"]["turns"] > 0
    summary = data["summary"]
    assert summary["groups"]["python"]["pass@2"] == 100.0 and summary["groups"]["python"]["ran"] == 2
    assert (summary["total"]["pass@1"], summary["total"]["pass@2"]) == (50.0, 100.0)
    table = slmcode("eval", "--suite", "polyglot", str(tmp_path / "nowhere"), cwd=tmp_path)
    assert table.returncode == 2 and "Traceback" not in table.stderr
    assert f"{tmp_path / 'nowhere'}: not a folder" in table.stderr
    (tmp_path / "empty").mkdir()
    empty = slmcode("eval", "--suite", "polyglot", str(tmp_path / "empty"), cwd=tmp_path)
    assert empty.returncode == 2 and "Traceback" not in empty.stderr
    assert "no <language>/exercises/practice/<exercise>/ folders" in empty.stderr.replace("\n", "")
    mixed = slmcode("eval", "--suite", "polyglot", str(bench), "--compare", cwd=tmp_path)
    assert mixed.returncode == 2 and "--compare and --sim go together on --suite polyglot" in mixed.stderr


@pytest.mark.slow
def test_swebench_resolves_the_right_fix_not_the_wrong_one_and_skips_a_missing_clone(tmp_path: Path) -> None:
    _clone, base, patch = make_clone(tmp_path / "repos")
    path = tmp_path / "instances.jsonl"
    path.write_text(
        "\n".join(
            [
                instance_line("acme__calc-good", base, patch),
                instance_line("acme__calc-bad", base, patch),
                instance_line("other__lib-1", base, patch, repo="other/lib"),
            ]
        )
        + "\n"
    )

    def edit(text: str) -> tuple[str, str, str]:
        return "calc.py", BUGGY, FIXED if "ACME__CALC-GOOD" in text else WRONG

    with scripted_model(FakeLLM(models=["qwen2.5-coder:7b"]), edit) as fake:
        result = slmcode(
            "eval",
            "--suite",
            "swebench",
            str(path),
            "--repos",
            str(tmp_path / "repos"),
            "--json",
            "--jobs",
            "2",
            "--base-url",
            fake.url,
            "--model",
            "qwen2.5-coder:7b",
            "--out",
            str(tmp_path / "out"),
            cwd=tmp_path,
        )
        elsewhere = tmp_path / "elsewhere.jsonl"
        elsewhere.write_text(
            "\n".join(instance_line(f"other__lib-{n}", base, patch, repo="other/lib") for n in (1, 2)) + "\n"
        )
        none_ran = slmcode(
            "eval",
            "--suite",
            "swebench",
            str(elsewhere),
            "--repos",
            str(tmp_path / "repos"),
            "--base-url",
            fake.url,
            "--model",
            "qwen2.5-coder:7b",
            "--out",
            str(tmp_path / "out"),
            cwd=tmp_path,
        )
    assert result.returncode == 0, result.stderr
    # A repository without a clone is one line for all its instances, and the table counts them as not resolved.
    assert none_ran.returncode == 0, none_ran.stderr
    assert [line for line in none_ran.stderr.splitlines() if line.startswith("skipped")] == [
        f"skipped 2 items (other__lib-1, ...): no clone of other/lib (looked for {tmp_path / 'repos'}/other__lib "
        f"or {tmp_path / 'repos'}/lib)"
    ]
    assert "0.0%" in none_ran.stdout
    data = json.loads(result.stdout)
    attempts = {a["id"]: a for a in data["attempts"]}
    assert attempts["acme__calc-good"]["tries"] == [True]
    bad = attempts["acme__calc-bad"]
    assert bad["tries"] == [False] and bad["failure"] == "tests_failed" and bad["files_changed"] == ["calc.py"]
    assert bad["tests"]["FAIL_TO_PASS"] == {"passed": 0, "total": 1}
    assert data["skipped"] == {"other__lib-1": data["skipped"]["other__lib-1"]}
    assert data["skipped"]["other__lib-1"].startswith("no clone of other/lib")
    total = data["summary"]["total"]
    # As the published tables count: over every instance of the file, a skipped one is not resolved.
    assert (total["instances"], total["resolved"], total["resolved %"]) == (3, 1, 33.3)
    assert data["summary"]["groups"]["acme/calc"]["resolved %"] == 50.0
    shown = slmcode("eval", "--suite", "swebench", str(path), "--repos", str(tmp_path / "nowhere"), cwd=tmp_path)
    assert shown.returncode == 2 and "Traceback" not in shown.stderr and "not a folder" in shown.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text(instance_line("acme__calc-good", base, patch) + '\n{"instance_id": \n')
    broken = slmcode("eval", "--suite", "swebench", str(bad), "--repos", str(tmp_path / "repos"), cwd=tmp_path)
    assert broken.returncode == 2 and "Traceback" not in broken.stderr
    assert f"{bad}:2: not valid JSON" in broken.stderr.replace("\n", "")
