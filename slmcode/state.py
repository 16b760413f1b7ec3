"""RunState, the typed state of one run, and its items (Task, Criterion, Verdict, ...) with reducers; WorkerInput,
the Send payload a worker branch carries from step to step.

Items are pydantic models so they validate on the way in and round-trip through every checkpointer
(the serializer stores them as plain data). Lists that several parallel workers update use reducers
keyed by id, so two workers never overwrite each other's task.
"""

from __future__ import annotations

import operator
from typing import Annotated, Literal, NotRequired, cast

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

Priority = Literal["must", "should"]
VerdictStatus = Literal["PASSED", "FAILED", "UNVERIFIED"]
TaskStatus = Literal["pending", "running", "review", "rejected", "done", "failed"]
SETTLED: frozenset[str] = frozenset({"done", "failed"})

WORK_LOG_LIMIT = 60


class Criterion(BaseModel):
    """One acceptance criterion: what must hold, and the command that proves it, when there is one."""

    text: str = Field(description="What must be true when the task is done, in one sentence.")
    priority: Priority = Field(default="must", description="must: the task fails without it; should: nice to have.")
    verify: str | None = Field(
        default=None, description="A shell command that exits 0 exactly when the criterion holds, or null."
    )


class Verdict(BaseModel):
    """The outcome of checking one criterion; evidence is the captured output of its command."""

    criterion: Criterion
    status: VerdictStatus
    evidence: str = ""
    exit_code: int | None = None
    gate: str | None = None  # the quality gate (slmcode.gates) this row comes from; None: an acceptance criterion


class Task(BaseModel):
    id: str
    title: str
    description: str = ""
    focus_files: list[str] = Field(default_factory=list)
    depends_on: list[str] = Field(default_factory=list)
    criteria: list[Criterion] = Field(default_factory=list)
    status: TaskStatus = "pending"
    attempts: int = 0
    files_changed: list[str] = Field(default_factory=list)
    verdicts: list[Verdict] = Field(default_factory=list)
    review_notes: list[str] = Field(default_factory=list)
    kind: Literal["code", "test"] = "code"
    allowance: int = 0  # extra attempts granted by escalation
    # The role's fallback model once the task failed on its own (nodes/fallback.py), and its attempts then.
    fallback_model: str = ""
    fallback_at: int = 0
    # verify commands that already passed before the task's first edit: passing again proves nothing about it
    baseline_passed: list[str] = Field(default_factory=list)
    # Its last correction changed no file: another would meet the same files and the same failing checks
    # (nodes/corrector.py stops there).
    stalled: bool = False

    @property
    def settled(self) -> bool:
        return self.status in SETTLED


class PRD(BaseModel):
    """The locked product requirements: what the run is for, settled before planning."""

    goal: str
    requirements: list[str] = Field(default_factory=list)
    answers: list[str] = Field(default_factory=list)
    criteria: list[Criterion] = Field(default_factory=list)


class QAResult(BaseModel):
    passed: bool
    command: str | None = None
    exit_code: int | None = None
    evidence: str = ""
    reason: str = ""


class AttemptRun(BaseModel):
    """One finished attempt of a best-of-N task (nodes/attempts.py), checked in its own copy of the workspace."""

    task_id: str
    round: int  # the task's `attempts` count when it ran: a corrector round later is another round
    attempt: int  # 1..of
    of: int
    passed: bool  # every must criterion with a verify command PASSED in the attempt's copy
    passed_count: int = 0
    turns: int = 0
    diff_lines: int = 0  # lines added and removed against the workspace, the tie-break
    focus_touched: bool = True  # it changed every focus file of the task (what the completeness gate asks)
    files_changed: list[str] = Field(default_factory=list)
    length: int = 0  # its conversation's length in the conversation store
    looped: str | None = None  # the loop guard's reason, when it stopped the attempt
    summary: str = ""


def merge_tasks(left: list[Task] | None, right: list[Task] | None) -> list[Task]:
    """Upsert by id, keeping first-seen order; a right-hand task replaces the left one with its id."""
    merged = {t.id: t for t in left or []}
    for task in right or []:
        merged[task.id] = task
    return list(merged.values())


def append_bounded(left: list[str] | None, right: list[str] | None) -> list[str]:
    """The work log keeps its last WORK_LOG_LIMIT lines: a long run must not grow the state without bound."""
    return [*(left or []), *(right or [])][-WORK_LOG_LIMIT:]


def merge_conversations(
    left: dict[str, list[AnyMessage]] | None, right: dict[str, list[AnyMessage]] | None
) -> dict[str, list[AnyMessage]]:
    """Each worker's conversation, by task id, merged with LangGraph's messages reducer."""
    merged = dict(left or {})
    for task_id, messages in (right or {}).items():
        merged[task_id] = cast(list[AnyMessage], add_messages(merged.get(task_id, []), messages))  # type: ignore[arg-type]
    return merged


class RunState(TypedDict, total=False):
    run_id: str
    query: str
    workspace: str
    phase: str
    exploration: str
    prd: PRD | None
    questions: list[dict[str, str]]  # clarify's open questions, waiting for the interview
    plan: str
    tasks: Annotated[list[Task], merge_tasks]
    board_notes: Annotated[list[str], operator.add]
    qa: QAResult | None
    lessons: Annotated[list[str], operator.add]
    work_log: Annotated[list[str], append_bounded]
    conversations: Annotated[dict[str, list[AnyMessage]], merge_conversations]
    rounds: int
    outcome: str
    answer: str  # a single specialist's answer (`run --agent`): the explorer's explanation, the planner's plan
    aborted: bool  # a slot with fail_mode abort failed: the run ends
    given_up: bool  # the user answered give_up to an escalation: the run ends with what it has (learn)
    attempt_runs: Annotated[dict[str, AttemptRun], operator.or_]  # best-of-N attempts, by branch key


class WorkerInput(TypedDict):
    """What a worker branch carries from step to step (the Send payload)."""

    run_id: str
    query: str
    task: Task
    role: str  # worker | corrector | tester
    length: int  # messages of the conversation so far, in the conversation store
    turn: int
    result_bytes: NotRequired[int]  # one tool result's inline allowance, set by the worker step for its tools
    ladder: NotRequired[dict]  # the compaction ladder's LadderState between this branch's requests
    refunds: NotRequired[int]  # turns given back in a row after recoverable provider errors (nodes.worker.refund)
    attempt: NotRequired[int]  # best-of-N (nodes/attempts.py): this branch is attempt `attempt` of `attempts_of`,
    attempts_of: NotRequired[int]  # working in a copy of the workspace
    messages: NotRequired[list[AnyMessage]]  # a branch checkpointed before the store: its conversation, carried
