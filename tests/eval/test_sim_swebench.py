"""`eval --suite swebench FILE --repos DIR --sim`: SWE-bench instances against the SIMULATED model, on a tiny
JSONL over a git repository made here (no network), reported in the SWE-Gym paper's terms: resolved, empty
patch and stuck in loop per cell."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.eval.conftest import slmcode
from tests.eval.test_sim import MODEL

# Longer than one page of ws_read (as a real repository's files are), shorter than the window: aider sends it whole.
HEAD = "".join(
    f"LIMIT_{n} = {n}  # a constant no test reads, its comment long enough to fill a page\n" for n in range(120)
)
BUGGY = HEAD + "def is_adult(age):\n    return age > 21\n"
FIXED = HEAD + "def is_adult(age):\n    return age >= 18\n"
TEST_BASE = "from ages import is_adult\n\n\ndef test_thirty():\n    assert is_adult(30)\n"
TEST_NEW = TEST_BASE + "\n\ndef test_eighteen():\n    assert is_adult(18)\n"


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout


def _diff(clone: Path, rel: str, text: str) -> str:
    (clone / rel).write_text(text)
    patch = _git(clone, "diff")
    _git(clone, "checkout", "-q", "--", ".")
    return patch


def jsonl(tmp_path: Path) -> tuple[Path, Path]:
    """acme__ages at a buggy base commit; one instance with its gold and test patches, one whose clone is
    missing, one without a gold patch."""
    clone = tmp_path / "repos" / "acme__ages"
    (clone / "tests").mkdir(parents=True)
    (clone / "ages.py").write_text(BUGGY)
    (clone / "tests" / "test_ages.py").write_text(TEST_BASE)
    _git(clone, "init", "-q")
    _git(clone, "add", "-A")
    _git(clone, "commit", "-qm", "base")
    base = _git(clone, "rev-parse", "HEAD").strip()
    test_patch, gold = _diff(clone, "tests/test_ages.py", TEST_NEW), _diff(clone, "ages.py", FIXED)

    def line(instance_id: str, repo: str = "acme/ages", **extra: Any) -> str:
        return json.dumps(
            {
                "instance_id": instance_id,
                "repo": repo,
                "base_commit": base,
                "problem_statement": "is_adult(18) is False; an 18-year-old is an adult.",
                "FAIL_TO_PASS": json.dumps(["tests/test_ages.py::test_eighteen"]),
                "PASS_TO_PASS": ["tests/test_ages.py::test_thirty"],
                "test_patch": test_patch,
                **extra,
            }
        )

    path = tmp_path / "instances.jsonl"
    lines = [line("acme__ages-7", patch=gold), line("other__lib-1", "other/lib", patch=gold), line("acme__ages-2")]
    path.write_text("\n".join(lines) + "\n")
    return path, tmp_path / "repos"


def run(tmp_path: Path, profile: str, *more: str) -> dict:
    path, repos = jsonl(tmp_path)
    result = slmcode(
        "eval", "--suite", "swebench", str(path), "--repos", str(repos), "--sim", profile, *more,
        "--json", "--out", str(tmp_path / "out"), cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["SIMULATED"] is True and data["suite"] == "swebench"
    assert "no clone of other/lib" in data["skipped"]["other__lib-1"]
    assert "no gold patch" in data["skipped"]["acme__ages-2"]
    assert list(data["instances"]) == ["acme__ages-7"]
    return data


@pytest.mark.slow
def test_every_cell_resolves_an_instance_under_the_perfect_profile(tmp_path: Path) -> None:
    figures = run(tmp_path, "perfect", "--compare")["swebench"]["perfect"]
    assert set(figures) == {"harness", "plain loop", "aider-like"}
    for cell in figures.values():
        assert cell["n"] == 1 and cell["resolved"]["count"] == 1, figures
        assert cell["empty_patch"]["count"] == 0 and cell["stuck_in_loop"]["count"] == 0, figures


@pytest.mark.slow
def test_a_wrong_fix_is_not_resolved_though_it_changed_the_code(tmp_path: Path) -> None:
    # Always the wrong idea and never turned right, so each cell writes the same graded wrong edit (which one is
    # the seed's draw: for this instance and seed 0, a changed constant), and the graded tests reject it.
    profile = tmp_path / "wrong.yaml"
    profile.write_text(
        f"name: wrong\nmodel: {MODEL}\nwindow_tokens: 0\nmind:\n  skill: -20\n  flip_after_failing_test: 0.0\n"
    )
    data = run(tmp_path, str(profile), "--peer", "mini-swe")
    figures = data["swebench"]["wrong"]
    assert set(figures) == {"harness", "mini-swe-like"}
    for cell in figures.values():
        assert cell["resolved"]["count"] == 0, figures
    for attempt in data["attempts"]:
        assert attempt["files_changed"] == ["ages.py"] and not attempt["solved"], attempt
        assert "FAILED tests/test_ages.py::test_eighteen" in attempt["grade_output"], attempt["grade_output"]
