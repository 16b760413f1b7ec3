"""The scope judge: concrete acceptance criteria for the PRD, each with a verify command where one exists.
Without a usable answer the project's test command becomes the one criterion: never an unchecked run."""

from __future__ import annotations

from langgraph.runtime import Runtime

from slmcode.nodes.llm import ask_role
from slmcode.nodes.prompts import SCOPE
from slmcode.nodes.quality import quality_of
from slmcode.nodes.schemas import Scope
from slmcode.nodes.simple_task import simple_task_of
from slmcode.run_context import RunContext, emit
from slmcode.state import Criterion, RunState

MAX_CRITERIA = 6


def test_suite_criterion(command: str | None) -> Criterion:
    return Criterion(text="The test suite passes.", priority="must", verify=command)


def judge_scope(state: RunState, runtime: Runtime[RunContext]) -> dict:
    prd = state["prd"]
    assert prd is not None, "clarify runs before the scope judge"
    emit(runtime, state["run_id"], "phase", phase="scope_judge")
    test_command = quality_of(runtime).test
    simple = simple_task_of(state, runtime)
    if simple is not None:  # its criterion fails before the change and passes after it
        criteria = simple.criteria() or [test_suite_criterion(test_command)]
        return {
            "phase": "scope_judge",
            "prd": prd.model_copy(update={"criteria": criteria}),
            "work_log": [f"scope_judge: a simple request; {len(criteria)} criteria (no model call)"],
        }
    requirements = "\n".join(f"- {r}" for r in prd.requirements)
    answer = ask_role(
        runtime,
        state,
        "scope_judge",
        Scope,
        SCOPE.format(requirements=requirements, test_command=test_command or "none"),
    )
    criteria = [c for c in (answer.value.criteria if answer.value else []) if c.text.strip()][:MAX_CRITERIA]
    if not any(c.verify for c in criteria):
        criteria.append(test_suite_criterion(test_command))
    note = f"scope_judge: {len(criteria)} criteria" + (f" ({answer.reason})" if answer.reason else "")
    return {"phase": "scope_judge", "prd": prd.model_copy(update={"criteria": criteria}), "work_log": [note]}


def default_scope(state: RunState, runtime: Runtime[RunContext]) -> dict:
    """Stands in for the scope judge when the pipeline skips it: the test suite is the one criterion."""
    prd = state["prd"]
    assert prd is not None
    criteria = [test_suite_criterion(quality_of(runtime).test)]
    return {
        "phase": "scope_judge",
        "prd": prd.model_copy(update={"criteria": criteria}),
        "work_log": ["scope_judge: skipped by the pipeline; the test suite is the criterion"],
    }
