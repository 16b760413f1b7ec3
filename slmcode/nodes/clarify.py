"""The clarify phase: requirements and open questions, answered by the user (clarify_mode ask: a LangGraph
interrupt) or by the model's own recommendations (auto), locked into the PRD."""

from __future__ import annotations

from langgraph.runtime import Runtime
from langgraph.types import interrupt

from slmcode.nodes.llm import ask_role
from slmcode.nodes.prompts import CLARIFY
from slmcode.nodes.schemas import Clarification
from slmcode.nodes.simple_task import simple_task_of
from slmcode.run_context import RunContext, emit, settings_of
from slmcode.state import PRD, RunState

MAX_QUESTIONS = 3


def clarify(state: RunState, runtime: Runtime[RunContext]) -> dict:
    """Requirements and questions from the model. In ask mode the questions wait in the state for the
    interview node, so answering them (a resume) never asks the model again."""
    query = state["query"]
    emit(runtime, state["run_id"], "phase", phase="clarify")
    if simple_task_of(state, runtime) is not None:  # the request says it all: nothing to ask a model
        return {
            "phase": "clarify",
            "prd": PRD(goal=query, requirements=[query]),
            "work_log": ["clarify: a simple request; it stands as is (no model call)"],
        }
    answer = ask_role(runtime, state, "clarify", Clarification, CLARIFY.format(query=query))
    if answer.value is None:
        prd = PRD(goal=query, requirements=[query])
        note = f"clarify: no answer, the request stands as is ({answer.reason})"
        return {"phase": "clarify", "prd": prd, "work_log": [note]}
    requirements = [r.strip() for r in answer.value.requirements if r.strip()] or [query]
    questions = answer.value.questions[:MAX_QUESTIONS]
    answers = [f"{q.question} -> {q.recommended}" for q in questions]
    prd = PRD(goal=query, requirements=requirements, answers=answers)
    update = {"phase": "clarify", "prd": prd, "work_log": [f"clarify: {len(requirements)} requirements locked"]}
    if questions and settings_of(runtime).clarify_mode == "ask":
        update["questions"] = [q.model_dump() for q in questions]
    return update


def interview(state: RunState, runtime: Runtime[RunContext]) -> dict:
    """Ask the user the open questions (a LangGraph interrupt); an empty answer takes the recommendation."""
    questions = state.get("questions") or []
    prd = state["prd"]
    assert prd is not None, "clarify runs before the interview"
    reply = interrupt({"kind": "clarify", "questions": questions})
    replies = reply if isinstance(reply, list) and len(reply) == len(questions) else [None] * len(questions)
    answers = [f"{q['question']} -> {a or q['recommended']}" for q, a in zip(questions, replies, strict=True)]
    return {
        "prd": prd.model_copy(update={"answers": answers}),
        "questions": [],
        "work_log": [f"clarify: {len(answers)} questions answered"],
    }


def lock_request(state: RunState, runtime: Runtime[RunContext]) -> dict:
    """Stands in for clarify when the pipeline skips it: the request, as given, is the requirement."""
    return {
        "phase": "clarify",
        "prd": PRD(goal=state["query"], requirements=[state["query"]]),
        "work_log": ["clarify: skipped by the pipeline; the request stands as is"],
    }
