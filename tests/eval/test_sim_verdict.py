"""The harness's verdict agrees with the hidden grade on the bundled tasks where they disagreed under the
SIMULATED perfect profile. py-bank-overdraft's request names bank/errors.py as where the error is already
defined: the run sent back the "done" that left it unchanged, the model (told of it) says it needs no change,
and the completeness gate takes that explanation, so a solved task ends "done", not "failed"."""

from __future__ import annotations

import pytest

from slmcode.eval.sim.profile import load_profile
from tests.eval.test_sim import attempt

pytestmark = pytest.mark.slow


def test_a_file_the_request_names_as_context_is_explained_and_the_solved_task_ends_done(on_path: None) -> None:
    result, sim = attempt("py-bank-overdraft", load_profile("perfect"))
    assert result.solved and result.outcome == "done"
    finals = [p for p in sim.log if p.role == "worker" and p.action == "answer"]
    assert len(finals) == 2  # its first "done" was sent back naming bank/errors.py; the second explains it
