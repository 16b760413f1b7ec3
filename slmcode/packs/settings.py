"""The slice of the settings a pack reads: the budget's, plus instructions, retrieval, skills and the repo map."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from slmcode.budget.settings import BudgetSettings

if TYPE_CHECKING:
    from slmcode.settings import AutoOnOff, Lever


class PackSettings(BudgetSettings, Protocol):
    include_readme: bool
    embedding_enabled: bool
    retrieval_min_score: float | None
    retrieval_semantic: AutoOnOff  # auto | on | off: localisation's semantic channel (packs/semantic)
    skill_max_expanded: int
    pinned_skills: list[str]
    repomap_tokens: int
    repomap_max_file_bytes: int
    identifier_only_roles: list[str]
    ablate: list[Lever]  # eval's switched-off levers: 'packs' (no code excerpts), 'repo_map' (no map sections)
