"""Carryover: facts gathered during a run in bounded buckets, copied verbatim (never summarised) into the
resume message after any compaction, as typed blocks.

The graph may keep a Carryover in the worker's state (key "carryover") and set task_focus (the task's
focus files, say) and the plan; the transcript fills the rest. Every bucket has a bound, so a long run
cannot grow it without limit.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from pydantic import BaseModel, ConfigDict, Field

from slmcode.compact.messages import (
    call_target,
    content_text,
    exit_code,
    first_line,
    head_length,
    result_failed,
    resume_data,
)
from slmcode.tools.registry import FILE_TOOLS, SHELL, SKILL

TASK_FOCUS_CHARS = 600
MAX_RECENT_FILES = 8
MAX_VERIFIED = 5
MAX_PLAN_STEPS = 8
MAX_SKILLS = 5
MAX_WORK_LOG = 10
LINE_CHARS = 120


def _latest(items: Sequence[str], limit: int) -> list[str]:
    """Distinct items, each at its latest position, the last `limit` of them."""
    order: dict[str, None] = {}
    for item in items:
        order.pop(item, None)
        order[item] = None
    return list(order)[-limit:]


class Plan(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    steps: list[str] = Field(default_factory=list, max_length=MAX_PLAN_STEPS)
    permission_mode: str = "auto"


class Carryover(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    task_focus: str = Field(default="", max_length=TASK_FOCUS_CHARS)
    recent_files: list[str] = Field(default_factory=list, max_length=MAX_RECENT_FILES)
    verified_work: list[str] = Field(default_factory=list, max_length=MAX_VERIFIED)
    plan: Plan = Field(default_factory=Plan)
    invoked_skills: list[str] = Field(default_factory=list, max_length=MAX_SKILLS)
    work_log: list[str] = Field(default_factory=list, max_length=MAX_WORK_LOG)

    def with_plan(self, steps: Sequence[str], permission_mode: str) -> Carryover:
        clipped = [first_line(s, LINE_CHARS) for s in steps][:MAX_PLAN_STEPS]
        return self.model_copy(update={"plan": Plan(steps=clipped, permission_mode=permission_mode)})

    def update(self, messages: Sequence[BaseMessage]) -> Carryover:
        """A copy with the buckets extended from `messages`; an item seen again moves to the end, not twice."""
        files, verified, skills, log = list(self.recent_files), list(self.verified_work), [], []
        skills.extend(self.invoked_skills)
        log.extend(self.work_log)
        results = {m.tool_call_id: m for m in messages if isinstance(m, ToolMessage)}
        for message in messages:
            if not isinstance(message, AIMessage):
                continue
            for call in message.tool_calls:
                name, target = call.get("name", ""), call_target(call)
                result = results.get(call.get("id") or "")
                failed = result is None or result_failed(result)
                code = exit_code(content_text(result)) if result is not None else None
                status = f"exit {code}" if code is not None else ("failed" if failed else "ok")
                if name in FILE_TOOLS and target:
                    files.append(target)
                if name == SHELL and code == 0:
                    verified.append(f"{first_line(target, LINE_CHARS)} -> exit 0")
                if name == SKILL and target and not failed:
                    skills.append(target)
                log.append(first_line(f"{name} {target}: {status}", LINE_CHARS))
        return self.model_copy(
            update={
                "recent_files": _latest(files, MAX_RECENT_FILES),
                "verified_work": _latest(verified, MAX_VERIFIED),
                "invoked_skills": _latest(skills, MAX_SKILLS),
                "work_log": _latest(log, MAX_WORK_LOG),
            }
        )

    def blocks(self) -> list[tuple[str, str]]:
        """(kind, body) for every bucket that holds something, in a fixed order."""
        plan_lines = [f"permission mode: {self.plan.permission_mode}"] + [f"- {s}" for s in self.plan.steps]
        candidates = [
            ("task_focus", self.task_focus),
            ("plan", "\n".join(plan_lines)),
            ("recent_files", "\n".join(f"- {f}" for f in self.recent_files)),
            ("verified_work", "\n".join(f"- {v}" for v in self.verified_work)),
            ("invoked_skills", "\n".join(f"- {s}" for s in self.invoked_skills)),
            ("work_log", "\n".join(f"- {line}" for line in self.work_log)),
        ]
        return [(kind, body) for kind, body in candidates if body.strip()]


def carryover_for(messages: Sequence[BaseMessage], *, permission_mode: str, base: Carryover | None = None) -> Carryover:
    """The carryover of a transcript: `base` (what the graph accumulated), else the one an earlier compaction
    left in the task message, extended from the messages."""
    head = head_length(messages)
    prior = resume_data(messages[head - 1]).get("carryover") if head else None
    base = base or (Carryover.model_validate(prior) if isinstance(prior, dict) else Carryover())
    # The mode in force is the settings' one, whatever the plan was written under.
    return base.with_plan(base.plan.steps, permission_mode).update(messages)
