"""Skills: discovery, cards for matches, and the limits on full bodies."""

from __future__ import annotations

from pathlib import Path

from slmcode.packs.skills import discover_skills, find_skill, select_skills


def skill(root: Path, folder: str, name: str, description: str, body: str = "Steps.") -> None:
    path = root / ".slmcode" / "skills" / folder / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nname: {name}\ndescription: {description}\n---\n{body}\n", encoding="utf-8")


def workspace(tmp_path: Path) -> Path:
    skill(tmp_path, "release", "release-notes", "Write release notes from the changelog before tagging a release")
    skill(tmp_path, "db", "database-migrations", "Add a database migration with alembic and test the downgrade")
    skill(tmp_path, "learned/go-errors", "go-errors", "Wrap Go errors with fmt.Errorf and %w", "Wrap with %w.")
    skill(tmp_path, "docs", "docs-style", "House style for user documentation pages")
    return tmp_path


def test_discovery_reads_front_matter_and_learned_skills_sorted_by_name(tmp_path: Path) -> None:
    skills = discover_skills(workspace(tmp_path))
    assert [s.name for s in skills] == ["database-migrations", "docs-style", "go-errors", "release-notes"]
    go = find_skill(skills, "GO-ERRORS")
    assert go is not None and go.learned and go.body == "Wrap with %w."
    assert go.path == ".slmcode/skills/learned/go-errors/SKILL.md"


def test_a_project_skill_wins_over_a_learned_one_of_the_same_name(tmp_path: Path) -> None:
    skill(tmp_path, "learned/x", "style", "learned version")
    skill(tmp_path, "style", "style", "project version")
    (only,) = discover_skills(tmp_path)
    assert only.description == "project version" and not only.learned


def test_a_match_gets_a_card_but_not_a_body_unless_its_score_is_high(tmp_path: Path) -> None:
    skills = discover_skills(workspace(tmp_path))
    weak = select_skills(skills, "tidy the changelog wording", max_expanded=2)
    assert [m.skill.name for m in weak.matches] == ["release-notes"]
    assert weak.expanded == ()
    strong = select_skills(skills, "write the release notes from the changelog for this release", max_expanded=2)
    assert [m.skill.name for m in strong.expanded] == ["release-notes"]
    assert strong.expanded[0].reason == "score"


def test_unrelated_query_matches_nothing(tmp_path: Path) -> None:
    skills = discover_skills(workspace(tmp_path))
    assert select_skills(skills, "speed up the json parser", max_expanded=2).matches == ()


def test_explicit_and_pinned_skills_expand_within_skill_max_expanded(tmp_path: Path) -> None:
    skills = discover_skills(workspace(tmp_path))
    query = "@skill:docs-style @skill:go-errors write release notes from the changelog for the release"
    chosen = select_skills(skills, query, pinned=["database-migrations"], max_expanded=2)
    assert [s.name for s in chosen.pinned] == ["database-migrations"]
    assert [(m.skill.name, m.reason) for m in chosen.expanded] == [("docs-style", "explicit")]
    assert len(chosen.pinned) + len(chosen.expanded) == 2
    assert "release-notes" in [m.skill.name for m in chosen.matches]  # still a card


def test_zero_expansions_allowed_means_cards_only(tmp_path: Path) -> None:
    skills = discover_skills(workspace(tmp_path))
    chosen = select_skills(skills, "@skill:go-errors", pinned=["docs-style"], max_expanded=0)
    assert chosen.pinned == () and chosen.expanded == ()
    assert [m.skill.name for m in chosen.matches] == ["go-errors"]
