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

from slmcode.blocks.compose import PhaseSpec
from slmcode.errors import BlockError
from slmcode.graph.routing import NEXT_PHASES, after_join, after_qa, after_slot, always, fan_out, guarded, next_phase
from slmcode.nodes.clarify import clarify, lock_request
from slmcode.nodes.coordinator import coordinate
from slmcode.nodes.corrector import correct
from slmcode.nodes.escalate import escalate
from slmcode.nodes.explore import gather_context
from slmcode.nodes.learn import learn
from slmcode.nodes.planner import plan
from slmcode.nodes.prompts import SYSTEM
from slmcode.nodes.qa import run_qa
from slmcode.nodes.reviewer import review
from slmcode.nodes.run_context import RunContext
from slmcode.nodes.scope import default_scope, judge_scope
from slmcode.nodes.slot import REPLACES, make_slot_node
from slmcode.nodes.splitter import split
from slmcode.nodes.tester import test
from slmcode.nodes.verify import verify
from slmcode.nodes.worker import run_tools, work
from slmcode.state import RunState

# What stands in for a phase whose `when` is never; phases not listed here cannot be skipped.
SKIPPED = {"clarify": lock_request, "scope_judge": default_scope}
OPTIONAL = {"context", "learn", *SKIPPED}
# Slots go around phases with one way in and one way out; the worker's branches have neither.
NO_SLOTS = {"worker"}


def join(state: RunState) -> dict:
    """Where every worker branch ends; the edge after it is the barrier."""
    return {}


def _check(phases: Sequence[PhaseSpec]) -> None:
    for spec in phases:
        anchor = (spec.slot or " ").split(" ", 1)[1]
        if spec.when == "never" and spec.slot is None and spec.name not in OPTIONAL:
            raise BlockError(f"pipeline: phase '{spec.name}' cannot be skipped (only {', '.join(sorted(OPTIONAL))})")
        if anchor in NO_SLOTS:
            raise BlockError(f"pipeline: slot '{spec.name}': no slot can go around phase '{anchor}'")
        if spec.slot and spec.slot.startswith("replace") and anchor not in REPLACES:
            raise BlockError(f"pipeline: slot '{spec.name}': only {', '.join(sorted(REPLACES))} can be replaced")


def build_graph(
    checkpointer: BaseCheckpointSaver | None = None, phases: Sequence[PhaseSpec] = ()
) -> CompiledStateGraph:
    """The compiled run graph; `phases` is the resolved pipeline (empty: the built-in one)."""
    _check(phases)
    never = {p.name for p in phases if p.when == "never" and p.slot is None}
    slots = [p for p in phases if p.slot and p.when != "never"]
    replaced = {p.slot.split(" ", 1)[1]: p for p in slots if p.slot.startswith("replace")}
    builder = StateGraph(RunState, context_schema=RunContext)

    def phase(name: str, func: Callable) -> None:
        if name in replaced:
            func = make_slot_node(replaced[name], SYSTEM.get(replaced[name].role, SYSTEM["worker"]))
        elif name in never:
            func = SKIPPED.get(name, join)
        builder.add_node(name, func)

    phase("context", gather_context)
    phase("clarify", clarify)
    phase("scope_judge", judge_scope)
    phase("planner", plan)
    phase("splitter", split)
    phase("coordinator", coordinate)
    builder.add_node("worker", work, destinations=("tools", "worker", "join"))
    builder.add_node("tools", run_tools, destinations=("worker",))
    builder.add_node("join", join)
    phase("verify", verify)
    phase("reviewer", review)
    phase("corrector", correct)
    phase("escalate", escalate)
    phase("tester", test)
    phase("qa", run_qa)
    phase("learn", learn)

    before = {n: [s for s in slots if s.slot == f"before {n}"] for n in {s.slot.split(" ", 1)[1] for s in slots}}
    after = {n: [s for s in slots if s.slot == f"after {n}"] for n in before}
    for spec in slots:
        if not spec.slot.startswith("replace"):
            builder.add_node(spec.name, make_slot_node(spec, SYSTEM.get(spec.role, SYSTEM["worker"])))

    def entry(name: str) -> str:
        return before[name][0].name if before.get(name) else name

    def exit_(name: str) -> str:
        return after[name][-1].name if after.get(name) else name

    for name in before:  # chain each phase's slots: before... -> phase -> after...
        chain = [*(s.name for s in before[name]), name, *(s.name for s in after[name])]
        for left, right in itertools.pairwise(chain):
            if left == name:
                builder.add_edge(left, right)
            else:
                builder.add_conditional_edges(left, after_slot, {"next": right, END: END})

    def branch(source: str, path: Callable, targets: Sequence[str]) -> None:
        """Edges out of a phase leave from its last after-slot, which may end the run instead."""
        tail = exit_(source)
        path_map = {t: entry(t) for t in targets}
        if tail == source:
            builder.add_conditional_edges(tail, path, path_map)
        else:
            builder.add_conditional_edges(tail, guarded(path), {**path_map, END: END})

    def edge(source: str, target: str) -> None:
        if exit_(source) == source:
            builder.add_edge(source, entry(target))
        else:
            branch(source, always(target), [target])

    builder.add_edge(START, entry("context"))
    edge("context", "clarify")
    edge("clarify", "scope_judge")
    edge("scope_judge", "planner")
    edge("planner", "splitter")
    edge("splitter", "coordinator")
    for source in ("coordinator", "corrector", "tester"):
        branch(source, fan_out, ["worker", *NEXT_PHASES])
    builder.add_conditional_edges("join", after_join, {"verify": entry("verify")})
    edge("verify", "reviewer")
    branch("reviewer", next_phase, NEXT_PHASES)
    branch("escalate", next_phase, NEXT_PHASES)
    branch("qa", after_qa, ["planner", "learn"])
    if exit_("learn") == "learn":
        builder.add_edge("learn", END)
    else:
        branch("learn", always(END), [END])
    return builder.compile(checkpointer=checkpointer, name="slmcode")
