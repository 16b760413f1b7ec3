"""`slmcode eval --sim ... --ablate attempts`: best-of-N is a lever switched on (attempts: 2) rather than off, and
its row says so."""

from __future__ import annotations

from slmcode.eval.sim.compare import ON_LEVERS, cells, parse_ablate


def test_the_attempts_lever_is_a_row_with_two_attempts_switched_on() -> None:
    grid = cells(False, parse_ablate("loop_guard,attempts"))
    assert [c.name for c in grid] == ["harness", "harness - loop_guard", "harness + attempts 2"]
    assert grid[2].off == () and ON_LEVERS["attempts"] == {"attempts": 2}
    assert "attempts" in parse_ablate("all")
