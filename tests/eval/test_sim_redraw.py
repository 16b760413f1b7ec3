"""Best-of-N against the SIMULATED model: attempt k > 1 keeps the first attempt's idea of the fix with the
profile's redraw_correlation, else draws its own. Before, every attempt held the first one's belief, so a second
attempt redrew only the same slips and best-of-N had nothing to choose between."""

from __future__ import annotations

import pytest

from slmcode.eval.sim.mind import Mind
from slmcode.eval.sim.profile import Profile
from slmcode.eval.sim.server import SimServer
from tests.eval.test_sim import MODEL, TASKS, attempt


def coin(correlation: float) -> Profile:
    """Right half the time (skill 0 on a one-hunk task), never learning from failing output, no slips."""
    return Profile(
        name=f"coin-{correlation}", model=MODEL, window_tokens=0, mind=Mind(redraw_correlation=correlation, skill=0.0)
    )


def beliefs(correlation: float, seeds: range) -> list[tuple[str, str]]:
    out = []
    for seed in seeds:
        sim = SimServer(TASKS["py-chunk"], coin(correlation), seed=seed)
        sim.attempt_of({"seed": 2})  # attempt 2's first request, as nodes/attempts.py sends it
        out.append((sim.beliefs[1].kind, sim.beliefs[2].kind))
    return out


def test_a_second_attempt_keeps_or_redraws_the_first_ones_belief_as_the_profile_says() -> None:
    assert all(first == second for first, second in beliefs(1.0, range(6)))
    independent = beliefs(0.0, range(6))
    assert any(first != second for first, second in independent)
    assert independent == beliefs(0.0, range(6))  # the same seeds, the same draws


@pytest.mark.slow
def test_best_of_two_solves_where_the_first_attempt_held_a_wrong_fix(on_path: None) -> None:
    # A seed whose first attempt holds a wrong fix and whose second, drawn anew, the right one.
    seed = next(s for s in range(20) if (kinds := beliefs(0.0, range(s, s + 1))[0])[0] != "right" == kinds[1])
    alone, _ = attempt("py-chunk", coin(0.0), seed=seed)
    best_of_two, _ = attempt("py-chunk", coin(0.0), seed=seed, attempts=2)
    same_idea, _ = attempt("py-chunk", coin(1.0), seed=seed, attempts=2)
    assert not alone.solved and best_of_two.solved and not same_idea.solved
