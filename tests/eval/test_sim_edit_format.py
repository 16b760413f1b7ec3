"""The simulated model and the edit format (SIMULATED): its drifted old_str misses, the whole-file rewrite it
writes once the harness offers one (auto), and the code it drops from such a rewrite at its profile's rate."""

from __future__ import annotations

import json
import random

import pytest

from slmcode.eval.runner import Job, run_job
from slmcode.eval.sim.errors import Dice, mistake
from slmcode.eval.sim.knowledge import FileChange, Hunk
from slmcode.eval.sim.policy import Action
from slmcode.eval.sim.profile import Profile
from slmcode.eval.sim.server import SimServer
from slmcode.eval.sim.shown import Shown
from slmcode.eval.suite import load_suite

TASK = next(t for t in load_suite() if t.id == "js-sum-range")
MISMATCH = Profile(
    name="only-old_str_mismatch", model="sim-qwen2.5-coder:7b", window_tokens=0, rates={"old_str_mismatch": 1.0}
)
BEFORE = "function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n\nfunction c() {\n  return 3;\n}\n"
AFTER = BEFORE.replace("return 1;", "return 10;")


def rewrite(drop_rate: float) -> Action:
    hunk = Hunk("m.js", "  return 1;\n", "  return 10;\n", 2)
    action = Action(
        "ws_write", {"path": "m.js", "content": AFTER}, hunk=hunk, change=FileChange("m.js", BEFORE, AFTER, (hunk,))
    )
    profile = Profile(name="p", model="m", window_tokens=0, rates={"drop_code_rewrite": drop_rate})
    return mistake(action, Shown(), Dice(random.Random(0), profile, 0, []))


def test_its_whole_file_rewrite_drops_code_at_its_profile_rate() -> None:
    assert rewrite(0.0).args["content"] == AFTER
    dropped = rewrite(1.0).args["content"]
    assert "return 10;" in dropped and "return 3;" not in dropped  # the end of the file lost, as from memory


def sim_attempt(edit_format: str, seed: int) -> tuple[bool, list[str], list[str]]:
    with SimServer(TASK, MISMATCH, seed=seed, agent="harness") as sim:
        settings = {"base_url": sim.url, "model": MISMATCH.model, "request_retries": 0, "edit_format": edit_format}
        result = run_job(Job(TASK, "harness", settings), timeout=600)
    texts = [json.dumps(r.get("messages", [])) for r in sim.requests]
    return result.solved, [p.action for p in sim.log], texts


@pytest.mark.slow
def test_every_old_str_drifting_it_takes_the_offered_rewrite_in_auto_and_never_in_replace(on_path: None) -> None:
    # Seed 0: its first two old_str misses recall a line wrongly (no near miss applies).
    solved, actions, texts = sim_attempt("auto", seed=0)
    assert any("Rewrite the whole file instead" in t for t in texts)
    assert actions.count("ws_edit") == 2 and "ws_write" in actions and solved
    _, actions, texts = sim_attempt("replace", seed=0)
    assert not any("Rewrite the whole file instead" in t for t in texts)
    assert "ws_write" not in actions and actions.count("ws_edit") > 2
