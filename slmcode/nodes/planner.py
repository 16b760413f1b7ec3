"""The planner: think_passes rounds of plan, then improve; a QA failure from the previous round is part of
what it plans against."""

from __future__ import annotations

from langgraph.runtime import Runtime

from slmcode.nodes.llm import ask_role
from slmcode.nodes.prompts import PLAN, PLAN_AGAIN
from slmcode.nodes.schemas import Plan, PlanStep
from slmcode.nodes.simple_task import simple_task_of
from slmcode.run_context import RunContext, emit, settings_of
from slmcode.state import RunState


def render_plan(plan: Plan) -> str:
    return "\n".join(
        f"{i}. {s.step}" + (f" [{', '.join(s.files)}]" if s.files else "") for i, s in enumerate(plan.steps, 1)
    )


def plan(state: RunState, runtime: Runtime[RunContext]) -> dict:
    prd = state["prd"]
    assert prd is not None
    emit(runtime, state["run_id"], "phase", phase="planner")
    simple = simple_task_of(state, runtime)
    if simple is not None:
        one = Plan(steps=[PlanStep(step=simple.description, files=simple.focus)])
        return {
            "phase": "planner",
            "plan": render_plan(one),
            "work_log": ["planner: a simple request; 1 step (no model call)"],
        }
    requirements = "\n".join(f"- {r}" for r in [*prd.requirements, *prd.answers])
    qa = state.get("qa")
    if qa is not None and not qa.passed:
        requirements += f"\n- The last test run failed; fix it:\n{qa.evidence[-800:]}"
    instruction = PLAN.format(goal=prd.goal, requirements=requirements)
    current: Plan | None = None
    notes: list[str] = []
    for _ in range(settings_of(runtime).think_passes):
        text = instruction if current is None else instruction + "\n\n" + PLAN_AGAIN.format(plan=render_plan(current))
        answer = ask_role(runtime, state, "planner", Plan, text)
        if answer.value is None:
            notes.append(answer.reason)
            break
        if answer.value.steps:
            current = answer.value
    if current is None:
        current = Plan(steps=[PlanStep(step=prd.goal)])
        notes.append("planner: no usable plan; the goal is the one step")
    return {
        "phase": "planner",
        "plan": render_plan(current),
        "work_log": [f"planner: {len(current.steps)} steps", *notes],
    }
