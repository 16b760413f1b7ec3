"""The answers each LLM phase must give, as pydantic models. Field descriptions are the prompt: they reach
the model through the JSON schema. Kept flat and small so a 7B model (or less) can fill them."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from slmcode.state import Criterion


class Question(BaseModel):
    question: str = Field(description="One short question about what is unclear.")
    recommended: str = Field(description="The answer you recommend.")


class Clarification(BaseModel):
    requirements: list[str] = Field(description="What the request requires, one short sentence each.")
    questions: list[Question] = Field(default_factory=list, description="At most 3 questions, or none.")


class Scope(BaseModel):
    criteria: list[Criterion] = Field(description="Acceptance criteria for the requirements.")


class PlanStep(BaseModel):
    step: str = Field(description="What to do.")
    files: list[str] = Field(default_factory=list, description="Files this step touches, relative paths.")


class Plan(BaseModel):
    steps: list[PlanStep] = Field(description="The steps of the plan, in order.")


class TaskDraft(BaseModel):
    title: str = Field(description="A short title.")
    description: str = Field(default="", description="What to do, concretely.")
    focus_files: list[str] = Field(default_factory=list, description="Files the task touches.")
    depends_on: list[str] = Field(default_factory=list, description="Titles of tasks that must be done first.")
    criteria: list[Criterion] = Field(default_factory=list, description="How to check the task is done.")


class Split(BaseModel):
    tasks: list[TaskDraft] = Field(description="The tasks, in order.")


class Review(BaseModel):
    approve: bool = Field(description="true when the evidence shows the task is done.")
    notes: list[str] = Field(default_factory=list, description="What must change, when you reject.")


class Escalation(BaseModel):
    decision: Literal["retry", "give_up"] = Field(description="retry once more, or give_up.")
    guidance: str = Field(default="", description="One line for the next attempt, when you retry.")


class Lessons(BaseModel):
    lessons: list[str] = Field(default_factory=list, description="At most 3 short lessons.")
