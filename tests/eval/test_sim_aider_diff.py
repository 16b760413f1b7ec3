"""The aider-like peer in aider's diff format (eval/aider_diff.py) driven by the SIMULATED model: search/replace
blocks parsed from text and applied to the files as they are now, a block whose SEARCH is not in the file told
back to the model up to three times per try (aider's reflections), and the malformed rates the profile gives
per answer (malformed_diff, then malformed_diff_again for an answer to a reflection)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from slmcode.eval.attempt import Attempt
from slmcode.eval.prompts import AIDER_DIFF_FAILED_HEAD
from slmcode.eval.runner import Job, run_job
from slmcode.eval.sim.profile import Profile, load_profile
from slmcode.eval.sim.server import SimServer
from slmcode.eval.suite import load_suite
from tests.eval.conftest import slmcode
from tests.eval.test_sim import MODEL
from tests.eval.test_sim_polyglot import checkout

TASKS = {t.id: t for t in load_suite()}
TASK = "py-median-even"


def _peer(profile: Profile, seed: int = 0) -> tuple[Attempt, SimServer]:
    task = TASKS[TASK]
    with SimServer(task, profile, seed=seed, agent="aider-diff") as sim:
        settings = {"base_url": sim.url, "model": profile.model, "request_retries": 0}
        return run_job(Job(task, "aider-diff", settings), timeout=600), sim


def _told(sim: SimServer) -> list[str]:
    last = [str(r["messages"][-1]["content"]) for r in sim.requests]
    return [text for text in last if text.startswith(AIDER_DIFF_FAILED_HEAD)]


def _sloppy(first: float, again: float) -> Profile:
    rates = {"malformed_diff": first, "malformed_diff_again": again}
    return Profile(name="sloppy", model=MODEL, window_tokens=0, rates=rates)


@pytest.mark.slow
def test_the_diff_peer_solves_with_search_replace_blocks(on_path: None) -> None:
    attempt, sim = _peer(load_profile("perfect"))
    assert attempt.solved and attempt.files_changed == ["stats.py"]
    assert all(not r.get("tools") for r in sim.requests)
    answer = sim.log[-1]
    assert answer.role == "aider" and not answer.errors
    assert not _told(sim) and attempt.signals["malformed_calls"] == 0


@pytest.mark.slow
def test_a_block_that_misses_is_told_back_and_the_next_answer_lands(on_path: None) -> None:
    attempt, sim = _peer(_sloppy(1.0, 0.0))
    told = _told(sim)
    assert len(told) == 1 and "as it recalls the line" in told[0]  # the block it sent, shown back to it
    assert [p.errors for p in sim.log] == [("malformed_diff",), ()]
    assert attempt.solved and attempt.signals["malformed_calls"] == 1


@pytest.mark.slow
def test_three_reflections_a_try_then_the_edit_is_lost(on_path: None) -> None:
    attempt, sim = _peer(_sloppy(1.0, 1.0))
    # Two tries (the bundled task runs its visible tests between them), each one answer and three reflections.
    assert len(sim.requests) == 8 and len(_told(sim)) == 6
    assert not attempt.solved and attempt.files_changed == []


@pytest.mark.slow
def test_the_second_try_edits_the_first_tries_text(tmp_path: Path, on_path: None) -> None:
    # Always wrong at first (its wrong edit applied), then turned right by the failing output: the second answer's
    # SEARCH must quote the file as the first try left it, as aider resends it.
    profile = tmp_path / "turns.yaml"
    profile.write_text(
        f"name: turns\nmodel: {MODEL}\nwindow_tokens: 0\nmind:\n  skill: -20\n  flip_after_failing_test: 1.0\n"
    )
    result = slmcode(
        "eval", "--suite", "polyglot", str(checkout(tmp_path / "polyglot")), "--sim", str(profile),
        "--peer", "aider-diff", "--json", "--out", str(tmp_path / "out"), cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    tries = [a["tries"] for a in data["attempts"] if a["cell"] == "aider-like diff"]
    assert tries == [[False, True]]
