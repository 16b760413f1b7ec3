"""The mini-swe-agent-like peer (eval/mini_swe.py) driven by the SIMULATED model: no tools on the wire, one bash
command per reply, its edits made by the shell, a format error sent back when a reply holds no single bash
block, and the submit marker ending the run; `--peer mini-swe` puts it in the comparison table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from slmcode.eval.attempt import Attempt
from slmcode.eval.prompts import MINI_SWE_SUBMIT
from slmcode.eval.runner import Job, run_job
from slmcode.eval.sim.profile import Profile, load_profile
from slmcode.eval.sim.server import SimServer
from slmcode.eval.suite import load_suite
from tests.eval.conftest import slmcode

TASKS = {t.id: t for t in load_suite()}


def _peer(task_id: str, profile: Profile, seed: int = 0) -> tuple[Attempt, SimServer]:
    task = TASKS[task_id]
    with SimServer(task, profile, seed=seed, agent="mini-swe") as sim:
        settings = {"base_url": sim.url, "model": profile.model, "request_retries": 0}
        return run_job(Job(task, "mini-swe", settings), timeout=600), sim


@pytest.mark.slow
def test_the_peer_solves_through_shell_commands_alone(on_path: None) -> None:
    attempt, sim = _peer("py-median-even", load_profile("perfect"))
    assert attempt.solved and attempt.files_changed == ["stats.py"]
    assert all(not r.get("tools") for r in sim.requests)  # bash only: no tool offered on any request
    sent = [r["messages"][-1]["content"] for r in sim.requests[1:]]
    assert all(text.startswith("<returncode>") for text in sent)  # each command's output came back
    commands = [p.action for p in sim.log]
    assert commands[-1] == "answer" and "ws_edit" in commands and "ws_shell" in commands


@pytest.mark.slow
def test_a_reply_without_one_bash_block_is_told_so_and_runs_nothing(on_path: None) -> None:
    sloppy = Profile(name="sloppy", model="sim-qwen2.5-coder:7b", window_tokens=0, rates={"malformed_args": 0.5})
    attempt, sim = _peer("py-median-even", sloppy, seed=1)  # seed 1 draws it on the first two replies
    told = [json.dumps(r["messages"][-1]) for r in sim.requests if "EXACTLY ONE bash code block" in json.dumps(r)]
    assert told and attempt.signals["malformed_calls"] >= 1
    assert any("malformed_args" in p.errors for p in sim.log)
    assert attempt.solved  # told, it answers again with one block


@pytest.mark.slow
def test_the_comparison_has_a_mini_swe_like_row_and_an_unknown_peer_is_one_line(tmp_path: Path) -> None:
    bad = slmcode("eval", "--sim", "perfect", "--peer", "swe-agent", cwd=tmp_path)
    assert bad.returncode != 0 and "--peer: unknown peer 'swe-agent'" in bad.stderr and "Traceback" not in bad.stderr
    ran = slmcode("eval", "--sim", "perfect", "--peer", "mini-swe", "--task", "py-median-even", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    row = next(line for line in ran.stdout.splitlines() if line.startswith("mini-swe-like"))
    assert "1/1" in row
    assert MINI_SWE_SUBMIT not in ran.stdout


def test_the_peer_prompts_are_stable() -> None:
    from slmcode.eval import prompts
    from tests.snapshot import assert_snapshot

    texts = [
        prompts.MINI_SWE_SYSTEM,
        prompts.MINI_SWE_TASK,
        prompts.MINI_SWE_OBSERVATION,
        prompts.MINI_SWE_FORMAT_ERROR,
    ]
    assert_snapshot("eval_mini_swe_prompts.txt", "\n---\n".join(texts) + "\n")
