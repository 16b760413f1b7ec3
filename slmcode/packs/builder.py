"""build_pack: everything one role sees for one task, fitted to the role's budget.

Order of work: the fixed sections (system prompt, tool contract), then every shared section within its share,
then the code excerpts with whatever is left. A part that fails (the repo map's index build, the embedding
cache) does not stop the pack: the pack goes without it and its notes say why.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from slmcode.budget.compute import role_budget
from slmcode.budget.tokens import TokenCounter, default_counter
from slmcode.environment.containment import readable
from slmcode.errors import RepoMapError
from slmcode.localize import semantic
from slmcode.localize.candidates import Candidate, rank_candidates
from slmcode.localize.sources import SourceFile, read_sources
from slmcode.packs import prompts
from slmcode.packs.derived import derived_files
from slmcode.packs.excerpts import Excerpt
from slmcode.packs.instructions import load_instructions
from slmcode.packs.map_parts import has_task_map, map_failure, stable_map, task_map, task_map_budget
from slmcode.packs.retrieval import retrieve
from slmcode.packs.section_text import (
    memory_text,
    stable_skills_text,
    task_query,
    task_skills_text,
    task_text,
)
from slmcode.packs.sections import SECTION_ORDER, Section, section, separator_tokens, share_caps
from slmcode.packs.selection import MENTION_LINES, render_excerpts, select_excerpts, select_signatures
from slmcode.packs.settings import PackSettings
from slmcode.packs.skills import discover_skills, select_skills
from slmcode.packs.taskpack import MapEntry, TaskPack, join_sections
from slmcode.repomap.build import load_index
from slmcode.repomap.model import RepoMap, SymbolIndex

if TYPE_CHECKING:  # a type only: slmcode.state imports LangGraph, which a pack (`slmcode pack`) never needs
    from slmcode.state import Task

MAX_FIT_ROUNDS = 4  # joins can cost a token or two more than their parts; shrink the code and re-fit


def load_repo_index(workspace: Path, settings: PackSettings) -> tuple[SymbolIndex | None, str]:
    """The workspace's symbol index, or None and the reason it could not be built."""
    try:
        return load_index(workspace, settings), ""
    except RepoMapError as exc:
        return None, str(exc)
    except Exception as exc:  # a map failure never fails a pack: it goes without, and says why
        return None, map_failure(exc)


def build_pack(
    role: str,
    *,
    settings: PackSettings,
    workspace: Path,
    query: str,
    system_prompt: str,
    tool_contract: str = "",
    task: Task | None = None,
    focus_files: Sequence[str] = (),
    memory: str = "",
    index: SymbolIndex | None = None,
    budget_tokens: int | None = None,
    index_failure: str = "",
) -> TaskPack:
    """`index`: the caller's repo index (load_repo_index), else loaded here; `index_failure`: why the caller's
    load failed (the pack says so and does not try again)."""
    counter = default_counter()
    available = budget_tokens if budget_tokens is not None else role_budget(settings, role).available
    # A focus file comes from a model or a plan edit: one that resolves outside the workspace is never read.
    focus = sorted(
        p for p in dict.fromkeys([*focus_files, *(task.focus_files if task else [])]) if readable(workspace, p)
    )
    search_text = task_query(query, task)
    notes: list[str] = []

    built: dict[str, Section] = {}
    built["system"] = section("system", system_prompt, available, counter)
    built["tools"] = section("tools", tool_contract, available - built["system"].tokens, counter)
    fixed_tokens = built["system"].tokens + built["tools"].tokens
    # The task is what the role must do: whole, unless it alone would take over half of what is left. A share
    # cut the demo's criteria off a 2K window's pack.
    built["task"] = section("task", task_text(query, task), max(0, available - fixed_tokens) // 2, counter)
    caps = share_caps(available, fixed_tokens + built["task"].tokens)

    instructions = load_instructions(workspace, settings, focus)
    notes += [f"instructions: {c}" for c in instructions.cut]
    built["instructions"] = section("instructions", instructions.base_text, caps["instructions"], counter)
    built["scoped_instructions"] = section(
        "scoped_instructions", instructions.scoped_text, caps["scoped_instructions"], counter
    )

    links_out: list[str] = []
    skills = discover_skills(workspace, links_out)
    notes += [f"skills: {path} leads out of the workspace through a symlink; skipped" for path in links_out]
    chosen = select_skills(skills, search_text, settings.pinned_skills, settings.skill_max_expanded)
    skills_cap = caps["skills"] + (caps["skill_bodies"] if chosen.pinned else 0)
    built["skills"] = section("skills", stable_skills_text(skills, chosen.pinned), skills_cap, counter)
    unlisted = [m.skill for m in chosen.matches if f"- {m.skill.name}:" not in built["skills"].text]
    built["skill_bodies"] = section(
        "skill_bodies", task_skills_text(chosen.expanded, unlisted), caps["skill_bodies"], counter
    )

    if index is None:
        index, reason = (None, index_failure) if index_failure else load_repo_index(workspace, settings)
        if reason:
            notes.append(prompts.NO_MAP_NOTE.format(reason=reason))
    # eval --ablate: the index still ranks the excerpts, but the map sections stay empty.
    no_map = "repo_map" in settings.ablate
    map_base = min(settings.repomap_tokens, caps["map"]) if index is not None and not no_map else 0
    stable, reason = stable_map(index, map_base, counter) if index is not None and not no_map else (None, "")
    notes += [prompts.NO_MAP_NOTE.format(reason=reason)] if reason else []
    built["map"] = section("map", stable.text if stable else "", caps["map"], counter)
    built["task_map"] = Section("task_map", "", 0)

    retrieval = retrieve(workspace, search_text, settings)
    notes += [f"retrieval: {retrieval.note}"] if retrieval.note and retrieval.method != "off" else []
    built["memory"] = section("memory", memory_text(memory, retrieval.hits), caps["memory"], counter)

    paths = sorted({*focus, *(index.files if index else ())})
    sources = read_sources(workspace, paths, index, settings.repomap_max_file_bytes)
    copies = derived_files(workspace, sources)  # generated, vendored or duplicate: shown once, as their source
    sources = [s for s in sources if s.path not in copies or s.path in focus]
    # eval --ablate packs: no code excerpts; the model finds the code with its tools.
    similar = partial(semantic.similarities, workspace) if semantic.enabled(settings.retrieval_semantic) else None
    candidates = [] if "packs" in settings.ablate else rank_candidates(sources, search_text, focus, similar)
    identifier_only = role in settings.identifier_only_roles
    # Counted as joined, not summed: the blank lines between the sections present, and two more for the parts to come.
    fixed = counter.count(join_sections([built[name] for name in SECTION_ORDER if name in built]))
    room = available - fixed - separator_tokens(3, counter)
    maps: list[RepoMap] = [stable] if stable else []
    if index is not None and stable is not None and has_task_map(map_base, settings.repomap_tokens):
        # The task's map takes what the map's budget has left once the pack's file bodies are counted.
        excerpts, _ = _code(sources, candidates, max(0, room), identifier_only, counter)
        # A file only mentioned by its best line is not a body the map can shrink for.
        bodies = {e.path for e in excerpts if e.end - e.start + 1 > MENTION_LINES}
        budget = task_map_budget(map_base, len(bodies), built["map"].tokens)
        excerpts, _ = _code(sources, candidates, max(0, room - budget), identifier_only, counter)
        heading = counter.count(prompts.HEADINGS["task_map"] + "\n")
        narrowed, reason = task_map(
            index,
            query=search_text,
            focus_files=focus,
            stable=stable,
            shown_files={e.path for e in excerpts},
            budget_tokens=budget - heading,
            counter=counter,
        )
        notes += [prompts.NO_MAP_NOTE.format(reason=reason)] if reason else []
        maps += [narrowed] if narrowed else []
        built["task_map"] = section("task_map", narrowed.text if narrowed else "", budget, counter)
        room -= built["task_map"].tokens
    map_entries = tuple(MapEntry(r.symbol.path, r.symbol.name, r.symbol.start) for m in maps for r in m.symbols)
    for _ in range(MAX_FIT_ROUNDS):
        excerpts, code = _code(sources, candidates, max(0, room), identifier_only, counter)
        built["excerpts"] = Section("excerpts", code, counter.count(code))
        parts = tuple(built[name] for name in SECTION_ORDER)
        tokens = counter.count(join_sections(list(parts)))
        if tokens <= available or not code:
            break
        room -= tokens - available
    return TaskPack(role, available, tokens, parts, tuple(excerpts), map_entries, tuple(notes))


def _code(
    sources: Sequence[SourceFile],
    candidates: Sequence[Candidate],
    budget: int,
    identifier_only: bool,
    counter: TokenCounter,
) -> tuple[list[Excerpt], str]:
    """The excerpts section: code bodies, or signatures for identifier-only roles; its heading included."""
    heading = prompts.HEADINGS["excerpts"]
    inner = budget - counter.count(f"{heading}\n{prompts.CODE_NOTE}\n\n")
    if inner <= 0 or not candidates:
        return [], ""
    if identifier_only:
        body = select_signatures(sources, candidates, inner, counter)
        return [], f"{heading}\n{body}" if body else ""
    excerpts = select_excerpts(sources, candidates, inner, counter)
    if not excerpts:
        return [], ""
    return excerpts, f"{heading}\n{prompts.CODE_NOTE}\n\n{render_excerpts(sources, excerpts)}"
