"""The run graph, wired in one flat list of nodes and edges (see DESIGN.md, "The graph")."""

from __future__ import annotations

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from slmcode.graph.routing import NEXT_PHASES, after_join, after_qa, fan_out, next_phase
from slmcode.nodes.clarify import clarify
from slmcode.nodes.coordinator import coordinate
from slmcode.nodes.corrector import correct
from slmcode.nodes.escalate import escalate
from slmcode.nodes.explore import gather_context
from slmcode.nodes.learn import learn
from slmcode.nodes.planner import plan
from slmcode.nodes.qa import run_qa
from slmcode.nodes.reviewer import review
from slmcode.nodes.run_context import RunContext
from slmcode.nodes.scope import judge_scope
from slmcode.nodes.splitter import split
from slmcode.nodes.tester import test
from slmcode.nodes.verify import verify
from slmcode.nodes.worker import run_tools, work
from slmcode.state import RunState


def join(state: RunState) -> dict:
    """Where every worker branch ends; the edge after it is the barrier."""
    return {}


def build_graph(checkpointer: BaseCheckpointSaver | None = None) -> CompiledStateGraph:
    builder = StateGraph(RunState, context_schema=RunContext)
    builder.add_node("context", gather_context)
    builder.add_node("clarify", clarify)
    builder.add_node("scope_judge", judge_scope)
    builder.add_node("planner", plan)
    builder.add_node("splitter", split)
    builder.add_node("coordinator", coordinate)
    builder.add_node("worker", work, destinations=("tools", "worker", "join"))
    builder.add_node("tools", run_tools, destinations=("worker",))
    builder.add_node("join", join)
    builder.add_node("verify", verify)
    builder.add_node("reviewer", review)
    builder.add_node("corrector", correct)
    builder.add_node("escalate", escalate)
    builder.add_node("tester", test)
    builder.add_node("qa", run_qa)
    builder.add_node("learn", learn)

    builder.add_edge(START, "context")
    builder.add_edge("context", "clarify")
    builder.add_edge("clarify", "scope_judge")
    builder.add_edge("scope_judge", "planner")
    builder.add_edge("planner", "splitter")
    builder.add_edge("splitter", "coordinator")
    for phase in ("coordinator", "corrector", "tester"):
        builder.add_conditional_edges(phase, fan_out, ["worker", *NEXT_PHASES])
    builder.add_conditional_edges("join", after_join, ["verify"])
    builder.add_edge("verify", "reviewer")
    builder.add_conditional_edges("reviewer", next_phase, NEXT_PHASES)
    builder.add_conditional_edges("escalate", next_phase, NEXT_PHASES)
    builder.add_conditional_edges("qa", after_qa, ["planner", "learn"])
    builder.add_edge("learn", END)
    return builder.compile(checkpointer=checkpointer, name="slmcode")
