"""The run graph, wired from the table of phases (graph/phases.py; docs/architecture.md#the-graph).

The pipeline block can reshape it: a phase with `when: never` drops out of the chain (only phases the
rest of the run can do without), and slots insert custom agents before, after or in place of a phase.
Edges are written between phase names; `entry` and `exit` map a name to the node a slot put in front
of it or behind it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Sequence

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from slmcode.blocks.compose import PhaseSpec, Place
from slmcode.errors import BlockError
from slmcode.graph.phases import FIRST, PHASES, Phase, join
from slmcode.graph.routing import after_slot, always, guarded
from slmcode.nodes.prompts import SYSTEM
from slmcode.nodes.slot import REPLACES, make_slot_node
from slmcode.run_context import RunContext
from slmcode.state import RunState

# Phases a pipeline may skip (`when: never`), and those no slot can go around (the worker's branches have
# no one way in and one way out).
OPTIONAL = {p.name for p in PHASES if p.skip is not None}
NO_SLOTS = {p.name for p in PHASES if not p.slots}


def _check(phases: Sequence[PhaseSpec]) -> None:
    for spec in phases:
        anchor = spec.slot.anchor if spec.slot else ""
        if spec.when == "never" and spec.slot is None and spec.name not in OPTIONAL:
            raise BlockError(f"pipeline: phase '{spec.name}' cannot be skipped (only {', '.join(sorted(OPTIONAL))})")
        if anchor in NO_SLOTS:
            raise BlockError(f"pipeline: slot '{spec.name}': no slot can go around phase '{anchor}'")
        if spec.slot and spec.slot.position == "replace" and anchor not in REPLACES:
            raise BlockError(f"pipeline: slot '{spec.name}': only {', '.join(sorted(REPLACES))} can be replaced")


def _slot_node(spec: PhaseSpec) -> Callable:
    return make_slot_node(spec, SYSTEM.get(spec.role, SYSTEM["worker"]))


def build_graph(
    checkpointer: BaseCheckpointSaver | None = None, phases: Sequence[PhaseSpec] = ()
) -> CompiledStateGraph:
    """The compiled run graph; `phases` is the resolved pipeline (empty: the built-in one)."""
    _check(phases)
    never = {p.name for p in phases if p.when == "never" and p.slot is None}
    slots = [p for p in phases if p.slot and p.when != "never"]
    placed = [(p, p.slot) for p in slots if p.slot is not None]
    replaced = {slot.anchor: p for p, slot in placed if slot.position == "replace"}
    builder = StateGraph(RunState, context_schema=RunContext)

    def as_itself(phase: Phase) -> bool:
        return phase.name not in never and phase.name not in replaced

    for phase in PHASES:
        if phase.name in replaced:
            node = _slot_node(replaced[phase.name])
        elif phase.name in never:
            node = phase.skip or join
        else:
            node = phase.node
        if phase.destinations is not None:
            builder.add_node(phase.name, node, destinations=phase.destinations)
        else:
            builder.add_node(phase.name, node)
        if phase.tail is not None:  # there even when unreachable: a resumed thread may be waiting in it
            builder.add_node(phase.tail.name, phase.tail.node)
    for spec, slot in placed:
        if slot.position != "replace":
            builder.add_node(spec.name, _slot_node(spec))

    anchors = {slot.anchor for _, slot in placed}
    before = {n: [s.name for s in slots if s.slot == Place("before", n)] for n in anchors}
    after = {n: [s.name for s in slots if s.slot == Place("after", n)] for n in anchors}
    tail = {p.name: p.tail.name for p in PHASES if p.tail is not None and as_itself(p)}

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
        path_map: dict[Hashable, str] = {t: entry(t) for t in targets}
        if after.get(source):
            builder.add_conditional_edges(exit_(source), guarded(path), {**path_map, END: END})
        else:
            builder.add_conditional_edges(exit_(source), path, path_map)

    def edge(source: str, target: str) -> None:
        if after.get(source):
            branch(source, always(target), [target])
        else:
            builder.add_edge(exit_(source), entry(target))

    builder.add_edge(START, entry(FIRST))
    for phase in PHASES:
        if phase.name in tail:  # the phase hands over to its tail, or goes on past it
            assert phase.tail is not None and phase.then is not None
            beyond = after[phase.name][0] if after.get(phase.name) else entry(phase.then)
            builder.add_conditional_edges(
                phase.name, phase.tail.route, {phase.tail.name: phase.tail.name, "next": beyond}
            )
        if phase.then is not None:
            edge(phase.name, phase.then)
        elif phase.route is not None:
            branch(phase.name, phase.route, phase.targets)
    return builder.compile(checkpointer=checkpointer, name="slmcode")  # type: ignore[return-value]
