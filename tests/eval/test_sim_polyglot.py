"""`eval --suite polyglot DIR --sim`: Aider's polyglot layout against the SIMULATED model, on a tiny synthetic
checkout of that shape written here, reported as aider reports it (pass_1, pass_2, per language)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.eval.conftest import slmcode
from tests.eval.test_sim import MODEL

EXERCISE = {
    ".docs/instructions.md": "# Adder\n\nWrite `add(a, b)`, which returns the sum of two numbers.\n",
    ".meta/config.json": json.dumps(
        {"files": {"solution": ["adder.py"], "test": ["adder_test.py"], "example": [".meta/example.py"]}}
    ),
    ".meta/example.py": "def add(a, b):\n    return a + b\n",
    "adder.py": "def add(a, b):\n    pass\n",
    "adder_test.py": (
        "import unittest\n\nfrom adder import add\n\n\nclass AdderTest(unittest.TestCase):\n"
        "    def test_adds_two_numbers(self):\n        self.assertEqual(add(2, 3), 5)\n"
    ),
}


def checkout(root: Path) -> Path:
    for rel, text in EXERCISE.items():
        path = root / "python" / "exercises" / "practice" / "adder" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def run(tmp_path: Path, profile: str) -> dict:
    result = slmcode(
        "eval", "--suite", "polyglot", str(checkout(tmp_path / "polyglot")), "--sim", profile, "--compare",
        "--json", "--out", str(tmp_path / "out"), cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["SIMULATED"] is True and data["suite"] == "polyglot"
    return data


@pytest.mark.slow
def test_every_cell_solves_a_polyglot_exercise_under_the_perfect_profile(tmp_path: Path, on_path: None) -> None:
    passes = run(tmp_path, "perfect")["passes"]["perfect"]
    assert set(passes) == {"harness", "plain loop", "aider-like"}
    for cell in passes.values():
        assert cell["python"]["pass_1"]["passed"] == 1 == cell["all"]["n"], passes


@pytest.mark.slow
def test_a_wrong_first_try_is_fixed_on_the_second_by_the_failing_output(tmp_path: Path, on_path: None) -> None:
    # Always wrong at first, always turned right by failing test output it reads: pass_1 0, pass_2 1 for the
    # aider-like peer, whose only failing output is the second try's prompt.
    profile = tmp_path / "turns.yaml"
    profile.write_text(
        f"name: turns\nmodel: {MODEL}\nwindow_tokens: 0\nmind:\n  skill: -20\n  flip_after_failing_test: 1.0\n"
    )
    data = run(tmp_path, str(profile))
    aider = data["passes"]["turns"]["aider-like"]["all"]
    assert (aider["pass_1"]["passed"], aider["pass_2"]["passed"]) == (0, 1), aider
    tries = [a["tries"] for a in data["attempts"] if a["cell"] == "aider-like"]
    assert tries == [[False, True]]
