"""The SIMULATED fallback row (`eval --sim P --fallback-sim F`): an attempt runs against two
simulated servers, a task the small one fails escalates to the fallback's, and the table says how often that
fired."""

from __future__ import annotations

from pathlib import Path

import pytest

from slmcode.eval.sim.compare import Cell, cells, run_one
from slmcode.eval.sim.fallback import ESCALATED
from slmcode.eval.sim.profile import Profile
from slmcode.eval.sim.table import profile_summary, render
from slmcode.eval.suite import load_suite
from tests.eval.conftest import slmcode

TASK = next(t for t in load_suite() if t.id == "js-sum-range")
# A small model that stops before any edit, every time: it fails every attempt it gets.
NEVER_EDITS = Profile(
    name="never-edits", model="sim-qwen2.5-coder:7b", window_tokens=0, rates={"stop_without_edit": 1.0}
)


def test_the_fallback_row_follows_the_others() -> None:
    assert [c.name for c in cells(True, [], "14b")] == ["harness", "plain loop", "harness + fallback 14b"]
    assert [c.name for c in cells(False, [])] == ["harness"]


@pytest.mark.slow
def test_a_task_the_small_model_never_edits_is_solved_by_the_simulated_fallback(on_path: None) -> None:
    alone = run_one(TASK, NEVER_EDITS, 0, Cell("harness"), timeout=600)
    helped = run_one(TASK, NEVER_EDITS, 0, Cell("harness", fallback="perfect"), timeout=600)
    assert not alone.attempt.solved and alone.errors[ESCALATED] == 0
    assert helped.attempt.solved, helped.attempt.grade_output
    assert helped.errors[ESCALATED] == 1
    table = render({NEVER_EDITS.name: profile_summary([alone, helped], NEVER_EDITS.name)})
    assert "harness + fallback perfect" in table
    assert "harness + fallback perfect: escalation to the fallback fired in 1 of 1 attempts (SIMULATED)" in table


def test_fallback_sim_needs_sim_and_a_known_profile(tmp_path: Path) -> None:
    done = slmcode("eval", "--fallback-sim", "14b", "--task", "js-sum-range", cwd=tmp_path)
    assert done.returncode != 0 and "--fallback-sim go with --sim" in done.stdout + done.stderr
    done = slmcode("eval", "--sim", "7b", "--fallback-sim", "15b", "--task", "js-sum-range", cwd=tmp_path)
    assert done.returncode != 0 and "15b" in done.stdout + done.stderr
