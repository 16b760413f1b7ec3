"""The SIMULATED fallback model (`eval --sim 7b --fallback-sim 14b`): the row "harness +
fallback" runs each attempt against two simulated servers, the profile's and the fallback profile's, with the
run's `roles.worker.fallback` naming the second. A task the small model fails (or loops on) escalates to it
(nodes/fallback.py); whether it did is read off the fallback server: any request it answered."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from slmcode.eval.sim.profile import load_profile
from slmcode.eval.sim.server import SimServer
from slmcode.eval.suite import EvalTask

ESCALATED = "escalated"  # the Outcome's counter key: 1 when the attempt escalated to the fallback


@contextmanager
def fallback_server(task: EvalTask, profile: str, seed: int, agent: str) -> Iterator[SimServer | None]:
    """The fallback profile's own simulated server for one attempt; None when the row has no fallback."""
    if not profile:
        yield None
        return
    with SimServer(task, load_profile(profile), seed=seed, agent=agent) as server:
        yield server


def fallback_settings(server: SimServer) -> dict[str, Any]:
    """The run's settings that name the simulated fallback as the worker's (and so the corrector's) fallback."""
    return {"roles": {"worker": {"fallback": {"model": server.profile.model, "base_url": server.url}}}}


def escalated(server: SimServer) -> int:
    """1 if the run sent the fallback any request: escalation fired in this attempt."""
    return 1 if server.log else 0


def escalation_line(name: str, figures: dict[str, Any]) -> str:
    """How often escalation fired in a fallback row, for the table."""
    fired = figures.get("errors_made", {}).get(ESCALATED, 0)
    return f"{name}: escalation to the fallback fired in {fired} of {figures['attempts']} attempts (SIMULATED)"
