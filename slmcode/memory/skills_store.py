"""Learned skills: conventions that stuck, each a skills/learned/<name>/SKILL.md, indexed in SKILLS.md.

SKILL.md opens with YAML front matter (name, description), the format the skills pack reads.
SKILLS.md is generated from the folder, sorted by name, so it never drifts from what is on disk.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from slmcode.memory.files import read_text
from slmcode.store import paths
from slmcode.store.paths import SKILL_FILE, SKILLS_DIR

LEARNED_DIR = Path(SKILLS_DIR) / paths.LEARNED_DIR
MAX_NAME_CHARS = 48
MAX_DESCRIPTION_CHARS = 200
MAX_BODY_CHARS = 4000
INDEX_PREAMBLE = (
    "# Skills\n\nConventions earlier runs learned; each has a SKILL.md under skills/learned/. "
    "slmcode regenerates this index from that folder.\n"
)


@dataclass(frozen=True)
class LearnedSkill:
    name: str
    description: str
    body: str
    path: Path


def skill_slug(name: str) -> str:
    """A folder-safe name: lowercase words joined by hyphens."""
    slug = "-".join(re.findall(r"[a-z0-9]+", name.lower()))[:MAX_NAME_CHARS].strip("-")
    return slug or "convention"


def render_skill(name: str, description: str, body: str) -> str:
    front = yaml.safe_dump(
        {"name": name, "description": " ".join(description.split())[:MAX_DESCRIPTION_CHARS]},
        sort_keys=False,
        allow_unicode=True,
        width=1000,
    )
    return f"---\n{front}---\n\n{body.strip()[:MAX_BODY_CHARS]}\n"


def parse_skill(text: str, path: Path) -> LearnedSkill:
    """Front matter and body; a file without readable front matter is named after its folder."""
    fallback = LearnedSkill(path.parent.name, "", text.strip(), path)
    if not text.startswith("---\n"):
        return fallback
    front, found, body = text[4:].partition("\n---")
    if not found:
        return fallback
    try:
        meta = yaml.safe_load(front)
    except yaml.YAMLError:
        return fallback
    if not isinstance(meta, dict):
        return fallback
    return LearnedSkill(
        name=str(meta.get("name") or path.parent.name),
        description=str(meta.get("description") or ""),
        body=body.lstrip("-").strip(),
        path=path,
    )


def learned_skills(state: Path) -> list[LearnedSkill]:
    """Every learned skill under `state` (the .slmcode folder), sorted by name."""
    folder = state / LEARNED_DIR
    if not folder.is_dir():
        return []
    skills = [parse_skill(read_text(p), p) for p in sorted(folder.glob(f"*/{SKILL_FILE}"))]
    return sorted(skills, key=lambda s: s.name)


def render_index(skills: list[LearnedSkill], state: Path) -> str:
    lines = [
        f"- **{s.name}**: {s.description or '(no description)'} ({s.path.relative_to(state).as_posix()})"
        for s in skills
    ]
    return INDEX_PREAMBLE + "\n" + "".join(line + "\n" for line in lines)
