"""A skill or a memory file shipped as a symlink to a host file is never read into a prompt: a pinned skill's
body and MEMORY.md's lessons enter the pack with no model action. Judged by effect: the host file's secret is
in no request the scripted server receives, while the workspace's own skill is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from slmcode import api
from tests.fake_llm import FakeLLM
from tests.nodes.test_agent_fields import MODEL, script_worker
from tests.test_cli import slmcode

SECRET = "SECRET-5531-host-only"
INSIDE = "INSIDE-SKILL-BODY"


@pytest.mark.parametrize("linked", ["skill", "memory", "skills-folder"])
def test_a_linked_skill_or_memory_file_never_reaches_the_model(
    fake_llm: FakeLLM, repo: Path, tmp_path: Path, linked: str
) -> None:
    host = tmp_path / "host"
    (host / "leak").mkdir(parents=True)
    secret = host / "leak" / "SKILL.md"
    secret.write_text(f"# notes\n\n## Lessons\n\n- {SECRET}\n")
    skills = repo / ".slmcode" / "skills"
    if linked == "skills-folder":
        (repo / ".slmcode").mkdir(exist_ok=True)
        skills.symlink_to(host)  # the folder itself: every SKILL.md under it is the host's
        (repo / ".slmcode" / "AGENTS.md").write_text(f"{INSIDE}\n")  # the state folder's own text still goes
    else:
        (skills / "style").mkdir(parents=True)
        (skills / "style" / "SKILL.md").write_text(f"---\nname: style\ndescription: house style\n---\n{INSIDE}\n")
    if linked == "skill":
        (skills / "leak").mkdir()
        (skills / "leak" / "SKILL.md").symlink_to(secret)
    elif linked == "memory":
        (repo / ".slmcode" / "MEMORY.md").symlink_to(secret)
    script_worker(fake_llm)
    api.run(
        "Add a divide operation",
        repo,
        base_url=fake_llm.url,
        model=MODEL,
        request_retries=0,
        pinned_skills=["leak", "style"],
    )
    sent = "\n".join(json.dumps(request) for request in fake_llm.requests)
    assert INSIDE in sent  # the workspace's own text does reach the model
    assert SECRET not in sent


def test_the_pack_names_a_skill_linked_out_as_skipped_and_shows_none_of_it(repo: Path, tmp_path: Path) -> None:
    (tmp_path / "secret.md").write_text(f"---\nname: leak\ndescription: divide operation\n---\n{SECRET}\n")
    (repo / ".slmcode" / "skills" / "leak").mkdir(parents=True)
    (repo / ".slmcode" / "skills" / "leak" / "SKILL.md").symlink_to(tmp_path / "secret.md")
    shown = slmcode("pack", "-w", str(repo), "--query", "@skill:leak add a divide operation")
    assert shown.returncode == 0, shown.stderr
    assert SECRET not in shown.stdout + shown.stderr
    said = " ".join(shown.stderr.split())  # the console wraps long lines
    assert "note: skills: .slmcode/skills/leak/SKILL.md leads out of the workspace through a symlink" in said
