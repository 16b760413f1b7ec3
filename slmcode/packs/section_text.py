"""The bodies of the small sections, as text: the task with its criteria, skill cards and bodies, memory hits.
Pure functions; every list is rendered in a fixed order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from slmcode.packs import prompts
from slmcode.packs.retrieval import Hit
from slmcode.packs.skills import Skill, SkillMatch

if TYPE_CHECKING:  # a type only: slmcode.state imports LangGraph, which a pack (`slmcode pack`) never needs
    from slmcode.state import Task


def task_text(query: str, task: Task | None) -> str:
    parts = [prompts.TASK_QUERY.format(query=query.strip())] if query.strip() else []
    if task is not None:
        lines = [prompts.TASK_TITLE.format(id=task.id, title=task.title.strip())]
        if task.description.strip():
            lines.append(task.description.strip())
        if task.criteria:
            lines.append(prompts.CRITERIA_HEADER)
            for criterion in task.criteria:
                lines.append(prompts.CRITERION_LINE.format(priority=criterion.priority, text=criterion.text.strip()))
                if criterion.verify:
                    lines.append(prompts.CRITERION_VERIFY.format(verify=criterion.verify.strip()))
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def task_query(query: str, task: Task | None) -> str:
    """Everything the task says, as one text to search with."""
    if task is None:
        return query
    criteria = " ".join(c.text for c in task.criteria)
    return "\n".join(p for p in (query, task.title, task.description, " ".join(task.focus_files), criteria) if p)


def skill_cards(skills: Sequence[Skill]) -> str:
    cards = [prompts.SKILL_CARD.format(name=s.name, description=s.description or "(no description)") for s in skills]
    return "\n".join([*cards, prompts.SKILL_CARDS_HINT]) if cards else ""


def skill_bodies(skills: Sequence[Skill]) -> str:
    return "\n\n".join(prompts.SKILL_BODY.format(name=s.name, body=s.body) for s in skills)


def stable_skills_text(skills: Sequence[Skill], pinned: Sequence[Skill]) -> str:
    """The catalogue (a card for every skill, by name) and the pinned skills' bodies: the same for every task."""
    return "\n\n".join(t for t in (skill_cards(skills), skill_bodies(pinned)) if t)


def task_skills_text(expanded: Sequence[SkillMatch], unlisted: Sequence[Skill]) -> str:
    """Bodies this task earned, and cards of matches the catalogue had no room for."""
    return "\n\n".join(t for t in (skill_bodies([m.skill for m in expanded]), skill_cards(unlisted)) if t)


def memory_text(memory: str, hits: Sequence[Hit]) -> str:
    rendered = [prompts.MEMORY_HIT.format(source=h.source, text=h.text.strip()) for h in hits]
    return "\n\n".join(t for t in (memory.strip(), *rendered) if t)
