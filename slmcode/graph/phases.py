"""The table of phases the run graph is wired from (docs/architecture.md#the-graph). A new phase is one entry here
and one module in nodes/: its node, where the run goes after it, and what stands in for it when a pipeline
block says `when: never`. graph/builder.py turns the table into the graph and lays the pipeline's slots
around it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from langgraph.graph import END

from slmcode.graph.routing import (
    NEXT_PHASES,
    after_clarify,
    after_context,
    after_escalate,
    after_join,
    after_planner,
    after_qa,
    after_review,
    fan_out,
)
from slmcode.nodes.approval import approve_plan
from slmcode.nodes.attempts import settle
from slmcode.nodes.clarify import clarify, interview, lock_request
from slmcode.nodes.coordinator import coordinate
from slmcode.nodes.corrector import correct
from slmcode.nodes.escalate import escalate
from slmcode.nodes.explore import gather_context
from slmcode.nodes.learn import learn
from slmcode.nodes.planner import plan
from slmcode.nodes.qa import run_qa
from slmcode.nodes.reviewer import review
from slmcode.nodes.scope import default_scope, judge_scope
from slmcode.nodes.solo import after_solo, finish_solo, start_solo
from slmcode.nodes.splitter import split
from slmcode.nodes.team import one_task
from slmcode.nodes.tester import start_tester
from slmcode.nodes.verify import verify
from slmcode.nodes.worker.loop import run_tools, work
from slmcode.state import RunState


def join(state: RunState) -> dict:
    """Where every worker branch ends; the edge after it is the barrier. Also what stands in for a skipped
    phase that has nothing to hand on."""
    return {}


@dataclass(frozen=True)
class Tail:
    """A node an active phase may hand over to before the run moves on: `route` answers `name` or "next"."""

    name: str
    node: Callable
    route: Callable


@dataclass(frozen=True)
class Phase:
    """One node of the run graph. The run leaves it by a plain edge to `then`, or by `route`, which answers
    one of `targets` (or Sends), or by the node's own Command to one of `destinations`."""

    name: str
    node: Callable
    then: str | None = None
    route: Callable | None = None
    targets: tuple[str, ...] = ()
    destinations: tuple[str, ...] | None = None
    skip: Callable | None = None  # the stand-in for `when: never`; None: the rest of the run needs this phase
    slots: bool = True  # may a pipeline slot go before, after or in place of it
    tail: Tail | None = None  # only while the phase runs as itself (not skipped, not replaced)


FIRST = "context"
FAN_OUT_TARGETS = ("worker", *NEXT_PHASES)

PHASES: tuple[Phase, ...] = (
    Phase("context", gather_context, route=after_context, targets=("clarify", "solo"), skip=join),
    # An active clarify ends in the interview (its questions, when it has any, for the user).
    Phase("clarify", clarify, then="scope_judge", skip=lock_request, tail=Tail("interview", interview, after_clarify)),
    Phase("scope_judge", judge_scope, then="planner", skip=default_scope),
    Phase("planner", plan, route=after_planner, targets=("splitter", "solo_end", "one_task")),
    Phase("splitter", split, then="approve"),
    Phase("approve", approve_plan, then="coordinator", slots=False),  # waits for the user only with `approve: plan`
    Phase("coordinator", coordinate, route=fan_out("coordinator"), targets=FAN_OUT_TARGETS),
    Phase("worker", work, destinations=("tools", "worker", "join"), slots=False),
    Phase("tools", run_tools, destinations=("worker",), slots=False),
    Phase("join", settle, route=after_join, targets=("verify", "solo_end"), slots=False),
    Phase("verify", verify, then="reviewer"),
    Phase("reviewer", review, route=after_review, targets=(*NEXT_PHASES, "solo_end")),
    Phase("corrector", correct, route=fan_out("corrector"), targets=FAN_OUT_TARGETS),
    Phase("escalate", escalate, route=after_escalate, targets=(*NEXT_PHASES, "learn")),
    Phase("tester", start_tester, route=fan_out("tester"), targets=FAN_OUT_TARGETS),
    Phase("qa", run_qa, route=after_qa, targets=("planner", "learn")),
    Phase("learn", learn, then=END, skip=join),
    # `run --agent ROLE`: one specialist, then solo_end.
    Phase("solo", start_solo, route=after_solo, targets=("worker", "planner", "reviewer"), slots=False),
    Phase("solo_end", finish_solo, then=END, slots=False),
    # team: auto, a small task: one worker instead of splitter + coordinator.
    Phase("one_task", one_task, route=fan_out("one_task"), targets=FAN_OUT_TARGETS, slots=False),
)
