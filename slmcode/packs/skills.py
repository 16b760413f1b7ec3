"""Skills: SKILL.md files under .slmcode/skills/ (learned ones under .slmcode/skills/learned/), disclosed
progressively. Every skill that matches the query gets a card (name and description); a full body only for an
explicit `@skill:NAME`, a pinned skill (setting pinned_skills) or a high match score, at most
skill_max_expanded bodies in all, pins first.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from slmcode.environment.containment import readable
from slmcode.localize.lexical import terms
from slmcode.store.paths import LEARNED_DIR, SKILL_FILE, SKILLS_DIR, STATE_DIR

SKILLS_FOLDER = f"{STATE_DIR}/{SKILLS_DIR}"
MATCH_SCORE = 0.12  # below this a skill is not a match: no card in the task's part of the pack
EXPAND_SCORE = 0.45  # at or above this a match earns its full body
NAME_BONUS = 0.3  # the query names every word of the skill's name

_FRONT_MATTER_RE = re.compile(r"\A---\n(.*?)\n---\n?", re.DOTALL)
_EXPLICIT_RE = re.compile(r"@skill:([A-Za-z0-9_.-]+)")


@dataclass(frozen=True)
class Skill:
    name: str
    description: str
    body: str
    path: str  # relative to the workspace
    learned: bool = False


@dataclass(frozen=True)
class SkillMatch:
    skill: Skill
    score: float
    reason: str  # "explicit", "pinned", "score" for expanded skills; "match" for a card only


@dataclass(frozen=True)
class SkillSelection:
    """Cards for every match (best first); bodies split into pinned (stable) and task-specific ones."""

    matches: tuple[SkillMatch, ...]
    pinned: tuple[Skill, ...]
    expanded: tuple[SkillMatch, ...]


def parse_skill(text: str, fallback_name: str, path: str, learned: bool) -> Skill:
    """A skill from its SKILL.md; front matter gives name and description, a missing name is the folder's."""
    meta: dict[str, object] = {}
    body = text
    match = _FRONT_MATTER_RE.match(text)
    if match:
        try:
            loaded = yaml.safe_load(match.group(1))
        except yaml.YAMLError:
            loaded = None  # keep the file as body; its folder names it
        if isinstance(loaded, dict):
            meta, body = loaded, text[match.end() :]
    name = str(meta.get("name") or fallback_name).strip()
    description = " ".join(str(meta.get("description") or "").split())
    return Skill(name=name, description=description, body=body.strip(), path=path, learned=learned)


def discover_skills(workspace: Path, skipped: list[str] | None = None) -> list[Skill]:
    """Every skill of the workspace, sorted by name; a project skill wins over a learned one of the same name.
    A SKILL.md that is (or lies under) a symlink out of the workspace is never read: a pinned skill's body
    enters the prompt with no model action, so its path is named in `skipped` instead."""
    root = workspace / SKILLS_FOLDER
    if not root.is_dir():
        return []
    if not readable(workspace, SKILLS_FOLDER):
        if skipped is not None:
            skipped.append(SKILLS_FOLDER)
        return []
    found: dict[str, Skill] = {}
    for path in sorted(root.rglob(SKILL_FILE), key=lambda p: p.as_posix()):
        relative = path.relative_to(workspace).as_posix()
        learned = path.relative_to(root).parts[0] == LEARNED_DIR
        if not readable(workspace, relative):
            if skipped is not None:
                skipped.append(relative)
            continue
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue  # an unreadable skill is as good as absent
        skill = parse_skill(text, path.parent.name, relative, learned)
        previous = found.get(skill.name)
        if previous is None or (previous.learned and not learned):
            found[skill.name] = skill
    return [found[name] for name in sorted(found)]


def find_skill(skills: Sequence[Skill], name: str) -> Skill | None:
    wanted = name.strip().lower()
    return next((s for s in skills if s.name.lower() == wanted), None)


def explicit_names(query: str) -> list[str]:
    """Skills the query asks for by `@skill:NAME`, in the order written."""
    return list(dict.fromkeys(m.lower() for m in _EXPLICIT_RE.findall(query)))


def match_score(skill: Skill, query_terms: Sequence[str]) -> float:
    """Cosine of the term sets of the query and the skill's name and description, plus a bonus for its name."""
    skill_terms = set(terms(f"{skill.name} {skill.description}"))
    asked = set(query_terms)
    if not skill_terms or not asked:
        return 0.0
    score = len(skill_terms & asked) / math.sqrt(len(skill_terms) * len(asked))
    name_terms = set(terms(skill.name.replace("-", " ")))
    if name_terms and name_terms <= asked:
        score += NAME_BONUS
    return round(score, 6)  # rounded so float noise never reorders ties


def select_skills(
    skills: Sequence[Skill], query: str, pinned: Sequence[str] = (), max_expanded: int = 2
) -> SkillSelection:
    query_terms = terms(_EXPLICIT_RE.sub(" ", query))
    explicit = explicit_names(query)
    pinned_names = [n.lower() for n in pinned]
    scored = [SkillMatch(s, match_score(s, query_terms), "match") for s in skills]
    matches = sorted(
        (m for m in scored if m.score >= MATCH_SCORE or m.skill.name.lower() in explicit),
        key=lambda m: (-m.score, m.skill.name),
    )
    by_name = {s.name.lower(): s for s in skills}
    pinned_skills = [by_name[n] for n in dict.fromkeys(pinned_names) if n in by_name][:max_expanded]
    taken = {s.name.lower() for s in pinned_skills}
    expanded: list[SkillMatch] = []
    wanted = [(by_name[n], "explicit") for n in explicit if n in by_name]
    wanted += [(m.skill, "score") for m in matches if m.score >= EXPAND_SCORE]
    for skill, reason in wanted:
        if len(pinned_skills) + len(expanded) >= max_expanded:
            break
        if skill.name.lower() not in taken:
            taken.add(skill.name.lower())
            expanded.append(SkillMatch(skill, match_score(skill, query_terms), reason))
    return SkillSelection(tuple(matches), tuple(pinned_skills), tuple(expanded))
