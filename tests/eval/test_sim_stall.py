"""A correction that changed no file is not followed by another: the SIMULATED model below never finds the fix
and never learns from the failing output, so every correction after its first re-sends the edit it already
made. With the stall lever on, each round stops correcting there; switched off (`ablate: [stall]`), the corrector
runs its every retry on the same files and the same failing check."""

from __future__ import annotations

import pytest

from slmcode.eval.sim.server import SimServer
from slmcode.nodes.prompts import SYSTEM
from tests.eval.test_sim import attempt
from tests.eval.test_sim_mind import DUNCE

pytestmark = pytest.mark.slow


def corrections(sim: SimServer) -> int:
    """The corrector's model requests the server answered."""
    return sum(SYSTEM["corrector"] in str((r.get("messages") or [{}])[0].get("content")) for r in sim.requests)


def test_a_correction_that_changed_nothing_ends_the_corrections(on_path: None) -> None:
    stopped, sim = attempt("py-chunk", DUNCE)
    repeated, sim_off = attempt("py-chunk", DUNCE, ablate=["stall"])
    assert not stopped.solved and not repeated.solved  # the same failure either way
    assert 0 < corrections(sim) < corrections(sim_off)
    assert len(sim.requests) < len(sim_off.requests)
    assert stopped.prompt_tokens < repeated.prompt_tokens
