"""Edge functions: where the run goes after each phase, read off the state (and the run's settings)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langgraph.graph import END
from langgraph.runtime import Runtime
from langgraph.types import Send

from slmcode.nodes.attempts import branches
from slmcode.nodes.corrector import attempts_left
from slmcode.nodes.solo import solo_agent
from slmcode.nodes.team import is_small
from slmcode.run_context import RunContext, settings_of
from slmcode.state import RunState

ROLE_OF_PHASE = {"coordinator": "worker", "one_task": "worker", "corrector": "corrector", "tester": "tester"}
NEXT_PHASES = ["corrector", "escalate", "coordinator", "tester", "qa"]
Path = Callable[[RunState, Runtime[RunContext]], Any]


def next_phase(state: RunState, runtime: Runtime[RunContext]) -> str:
    """After review or escalation: correct, escalate, schedule more work, test, or QA."""
    settings = settings_of(runtime)
    tasks = state.get("tasks", [])
    rejected = [t for t in tasks if t.status == "rejected"]
    if any(attempts_left(t, settings) for t in rejected):
        return "corrector"
    if rejected:
        return "escalate"
    if any(t.kind == "code" and t.status == "pending" for t in tasks):
        return "coordinator"
    if any(t.kind == "test" and t.status == "pending" for t in tasks):
        return "tester"
    return "qa"


def after_escalate(state: RunState, runtime: Runtime[RunContext]) -> str:
    """The user gave up: straight to the end (no tester, QA or new plan); else as after a review."""
    return "learn" if state.get("given_up") else next_phase(state, runtime)


def after_clarify(state: RunState, runtime: Runtime[RunContext]) -> str:
    return "interview" if state.get("questions") else "next"


def fan_out(phase: str) -> Path:
    """The edge after `phase`: one worker branch per running task, in that phase's role; none -> move on.
    The role comes from where the edge starts, not from state["phase"], which a slot after the phase renames."""
    role = ROLE_OF_PHASE[phase]

    def route(state: RunState, runtime: Runtime[RunContext]) -> list[Send] | str:
        sends = [
            Send("worker", branch)  # one branch per task, or one per attempt (nodes/attempts.py)
            for t in state.get("tasks", [])
            if t.status == "running"
            for branch in branches(
                runtime,
                {"run_id": state["run_id"], "query": state["query"], "task": t, "role": role, "length": 0, "turn": 0},
            )
        ]
        return sends or next_phase(state, runtime)

    route.__name__ = f"fan_out_{phase}"
    return route


def after_join(state: RunState, runtime: Runtime[RunContext]) -> list[str]:
    """The barrier: verify once no branch is still running; a branch that ends early just stops. A single
    specialist's branch ends the run instead: nothing verifies it."""
    if any(t.status == "running" for t in state.get("tasks", [])):
        return []
    return ["solo_end"] if solo_agent(runtime) else ["verify"]


def after_context(state: RunState, runtime: Runtime[RunContext]) -> str:
    return "solo" if solo_agent(runtime) else "clarify"


def after_planner(state: RunState, runtime: Runtime[RunContext]) -> str:
    """The planner alone ends there; a small task goes to one worker (nodes/team.py); else the splitter."""
    if solo_agent(runtime) == "planner":
        return "solo_end"
    return "one_task" if is_small(state, settings_of(runtime)) else "splitter"


def after_review(state: RunState, runtime: Runtime[RunContext]) -> str:
    return "solo_end" if solo_agent(runtime) == "reviewer" else next_phase(state, runtime)


def after_qa(state: RunState, runtime: Runtime[RunContext]) -> str:
    qa = state.get("qa")
    if qa is not None and not qa.passed and state.get("rounds", 1) < settings_of(runtime).max_rounds:
        return "planner"
    return "learn"


def after_slot(state: RunState, runtime: Runtime[RunContext]) -> str:
    """A slot with fail_mode abort that failed ends the run; otherwise the chain goes on."""
    return END if state.get("aborted") else "next"


def guarded(path: Path) -> Path:
    """`path`, unless a slot just aborted the run."""

    def route(state: RunState, runtime: Runtime[RunContext]) -> Any:
        return END if state.get("aborted") else path(state, runtime)

    route.__name__ = path.__name__
    return route


def always(target: str) -> Path:
    def route(state: RunState, runtime: Runtime[RunContext]) -> str:
        return target

    route.__name__ = f"to_{target}"
    return route
