"""The run graph, wired in one flat list of nodes and edges (see DESIGN.md, "The graph").

The pipeline block can reshape it: a phase with `when: never` drops out of the chain (only phases the
rest of the run can do without), and slots insert custom agents before, after or in place of a phase.
Edges are written between phase names; `entry` and `exit` map a name to the node a slot put in front
of it or behind it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from slmcode.blocks.compose import PhaseSpec, Place
from slmcode.errors import BlockError
from slmcode.graph.routing import (
    NEXT_PHASES,
    after_clarify,
    after_context,
    after_join,
    after_planner,
    after_qa,
    after_review,
    after_slot,
    always,
    fan_out,
    guarded,
    next_phase,
)
from slmcode.nodes.approval import approve_plan
from slmcode.nodes.clarify import clarify, interview, lock_request
from slmcode.nodes.coordinator import coordinate
from slmcode.nodes.corrector import correct
from slmcode.nodes.escalate import escalate
from slmcode.nodes.explore import gather_context
from slmcode.nodes.learn import learn
from slmcode.nodes.planner import plan
from slmcode.nodes.prompts import SYSTEM
from slmcode.nodes.qa import run_qa
from slmcode.nodes.reviewer import review
from slmcode.nodes.scope import default_scope, judge_scope
from slmcode.nodes.slot import REPLACES, make_slot_node
from slmcode.nodes.solo import after_solo, finish_solo, start_solo
from slmcode.nodes.splitter import split
from slmcode.nodes.team import one_task
from slmcode.nodes.tester import start_tester
from slmcode.nodes.verify import verify
from slmcode.nodes.worker import run_tools, work
from slmcode.run_context import RunContext
from slmcode.state import RunState

# What stands in for a phase whose `when` is never; phases not listed here cannot be skipped.
SKIPPED = {"clarify": lock_request, "scope_judge": default_scope}
OPTIONAL = {"context", "learn", *SKIPPED}
# Slots go around phases with one way in and one way out; the worker's branches have neither.
NO_SLOTS = {"worker", "approve", "solo", "solo_end", "one_task"}


def join(state: RunState) -> dict:
    """Where every worker branch ends; the edge after it is the barrier."""
    return {}


def _check(phases: Sequence[PhaseSpec]) -> None:
    for spec in phases:
        anchor = spec.slot.anchor if spec.slot else ""
        if spec.when == "never" and spec.slot is None and spec.name not in OPTIONAL:
            raise BlockError(f"pipeline: phase '{spec.name}' cannot be skipped (only {', '.join(sorted(OPTIONAL))})")
        if anchor in NO_SLOTS:
            raise BlockError(f"pipeline: slot '{spec.name}': no slot can go around phase '{anchor}'")
        if spec.slot and spec.slot.position == "replace" and anchor not in REPLACES:
            raise BlockError(f"pipeline: slot '{spec.name}': only {', '.join(sorted(REPLACES))} can be replaced")


def build_graph(
    checkpointer: BaseCheckpointSaver | None = None, phases: Sequence[PhaseSpec] = ()
) -> CompiledStateGraph:
    """The compiled run graph; `phases` is the resolved pipeline (empty: the built-in one)."""
    _check(phases)
    never = {p.name for p in phases if p.when == "never" and p.slot is None}
    slots = [p for p in phases if p.slot and p.when != "never"]
    replaced = {p.slot.anchor: p for p in slots if p.slot.position == "replace"}
    builder = StateGraph(RunState, context_schema=RunContext)

    def phase(name: str, func: Callable) -> None:
        if name in replaced:
            func = make_slot_node(replaced[name], SYSTEM.get(replaced[name].role, SYSTEM["worker"]))
        elif name in never:
            func = SKIPPED.get(name, join)
        builder.add_node(name, func)

    phase("context", gather_context)
    phase("clarify", clarify)
    builder.add_node("interview", interview)
    phase("scope_judge", judge_scope)
    phase("planner", plan)
    phase("splitter", split)
    builder.add_node("approve", approve_plan)  # waits for the user only with `approve: plan`
    phase("coordinator", coordinate)
    builder.add_node("worker", work, destinations=("tools", "worker", "join"))
    builder.add_node("tools", run_tools, destinations=("worker",))
    builder.add_node("join", join)
    phase("verify", verify)
    phase("reviewer", review)
    phase("corrector", correct)
    phase("escalate", escalate)
    phase("tester", start_tester)
    phase("qa", run_qa)
    phase("learn", learn)
    builder.add_node("solo", start_solo)  # `run --agent ROLE`: one specialist, then solo_end
    builder.add_node("solo_end", finish_solo)
    builder.add_node("one_task", one_task)  # team: auto, a small task: one worker instead of splitter + coordinator
    for spec in slots:
        if spec.slot.position != "replace":
            builder.add_node(spec.name, make_slot_node(spec, SYSTEM.get(spec.role, SYSTEM["worker"])))

    anchors = {s.slot.anchor for s in slots}
    before = {n: [s.name for s in slots if s.slot == Place("before", n)] for n in anchors}
    after = {n: [s.name for s in slots if s.slot == Place("after", n)] for n in anchors}
    # An active clarify ends in the interview (its questions, when it has any, for the user).
    interviews = "clarify" not in never and "clarify" not in replaced
    tail = {"clarify": "interview"} if interviews else {}

    def entry(name: str) -> str:
        return before[name][0] if before.get(name) else name

    def exit_(name: str) -> str:
        return after[name][-1] if after.get(name) else tail.get(name, name)

    for name in anchors:  # before-slots lead into the phase, after-slots follow its tail
        for left, right in itertools.pairwise([*before[name], name]):
            builder.add_conditional_edges(left, after_slot, {"next": right, END: END})
        chain = [tail.get(name, name), *after[name]]
        if len(chain) > 1:
            builder.add_edge(chain[0], chain[1])
        for left, right in itertools.pairwise(chain[1:]):
            builder.add_conditional_edges(left, after_slot, {"next": right, END: END})

    def branch(source: str, path: Callable, targets: Sequence[str]) -> None:
        """Edges out of a phase leave from its exit; an after-slot there may end the run instead."""
        path_map = {t: entry(t) for t in targets}
        if after.get(source):
            builder.add_conditional_edges(exit_(source), guarded(path), {**path_map, END: END})
        else:
            builder.add_conditional_edges(exit_(source), path, path_map)

    def edge(source: str, target: str) -> None:
        if after.get(source):
            branch(source, always(target), [target])
        else:
            builder.add_edge(exit_(source), entry(target))

    builder.add_edge(START, entry("context"))
    branch("context", after_context, ["clarify", "solo"])
    builder.add_conditional_edges("solo", after_solo, {"worker": "worker", "planner": entry("planner"),
                                                       "reviewer": entry("reviewer")})
    if interviews:
        beyond = after["clarify"][0] if after.get("clarify") else entry("scope_judge")
        builder.add_conditional_edges("clarify", after_clarify, {"interview": "interview", "next": beyond})
    edge("clarify", "scope_judge")
    edge("scope_judge", "planner")
    branch("planner", after_planner, ["splitter", "solo_end", "one_task"])
    edge("splitter", "approve")
    builder.add_edge("approve", entry("coordinator"))
    for source in ("coordinator", "one_task", "corrector", "tester"):
        branch(source, fan_out(source), ["worker", *NEXT_PHASES])
    builder.add_conditional_edges("join", after_join, {"verify": entry("verify"), "solo_end": "solo_end"})
    edge("verify", "reviewer")
    branch("reviewer", after_review, [*NEXT_PHASES, "solo_end"])
    branch("escalate", next_phase, NEXT_PHASES)
    branch("qa", after_qa, ["planner", "learn"])
    edge("learn", END)
    builder.add_edge("solo_end", END)
    return builder.compile(checkpointer=checkpointer, name="slmcode")
