"""TaskPacks: stable prefix, budget, identifier-only roles, determinism across processes, a prompt snapshot."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from slmcode.budget.tokens import count_tokens
from slmcode.config import Settings
from slmcode.packs.builder import build_pack
from slmcode.packs.taskpack import TaskPack
from slmcode.repomap.prompts import MAP_HEADER
from slmcode.state import Criterion, Task

SNAPSHOT = Path(__file__).parent / "snapshots" / "system_prompt.txt"
SYSTEM = "You are the worker. Edit files with ws_edit; run tests with ws_shell."
TOOLS = "ws_read(path, offset) reads a file; ws_edit(path, old, new) edits one."

CART = '''"""Shopping cart totals."""


class Cart:
    def __init__(self):
        self.items = []

    def add(self, item):
        self.items.append(item)

    def total(self):
        return sum(item.price for item in self.items)


def apply_discount(cart, rate):
    """Reduce the total by `rate`, a fraction."""
    return cart.total() * (1 - rate)
'''

USERS = '''"""User accounts."""


def create_user(name, email):
    if "@" not in email:
        raise ValueError("bad email")
    return {"name": name, "email": email}


def rename_user(user, name):
    user["name"] = name
    return user
'''


def fixture_workspace(root: Path) -> Path:
    (root / "shop").mkdir(parents=True, exist_ok=True)
    (root / "shop" / "cart.py").write_text(CART, encoding="utf-8")
    (root / "shop" / "users.py").write_text(USERS, encoding="utf-8")
    (root / "AGENTS.md").write_text(
        "# Rules\nRun pytest before you finish.\n\n## Web <!-- paths: web/** -->\nUse prettier.\n", encoding="utf-8"
    )
    skill = root / ".slmcode" / "skills" / "testing" / "SKILL.md"
    skill.parent.mkdir(parents=True, exist_ok=True)
    skill.write_text("---\nname: testing\ndescription: How to write pytest tests for the shop\n---\nUse fixtures.\n")
    return root


def pack_for(root: Path, query: str, settings: Settings | None = None, **kwargs: object) -> TaskPack:
    kwargs.setdefault("budget_tokens", 1500)
    return build_pack(
        "worker",
        settings=settings or Settings(),
        workspace=root,
        query=query,
        system_prompt=SYSTEM,
        tool_contract=TOOLS,
        **kwargs,
    )  # type: ignore[arg-type]


SMALL_MAP = Settings(repomap_tokens=100)  # a map this small is at full size even in a small pack


def test_the_pack_shows_the_code_the_query_names_with_real_line_numbers(tmp_path: Path) -> None:
    pack = pack_for(fixture_workspace(tmp_path), "apply_discount ignores a zero rate")
    cart = [e for e in pack.excerpts if e.path == "shop/cart.py"]
    assert cart and any(e.start <= 15 <= e.end for e in cart)
    assert "15\tdef apply_discount(cart, rate):" in pack.render()
    assert pack.tokens == count_tokens(pack.render()) <= pack.budget


def test_the_system_message_is_identical_for_different_tasks_of_a_role(tmp_path: Path) -> None:
    root = fixture_workspace(tmp_path)
    task = Task(
        id="t2",
        title="Validate emails",
        focus_files=["shop/users.py", "web/form.ts"],
        criteria=[Criterion(text="bad emails raise", verify="pytest -q tests/test_users.py")],
    )
    one = pack_for(root, "apply_discount ignores a zero rate")
    two = pack_for(root, "create_user accepts emails without a dot", task=task, memory="Users live in shop/users.py")
    assert one.messages()[0].content == two.messages()[0].content
    assert one.human_text() != two.human_text()
    human = two.messages()[1].content
    assert "Use prettier." in human and "Use prettier." not in two.system_text()  # gated: task-specific
    assert "Task t2: Validate emails" in human and "verify: `pytest -q tests/test_users.py`" in human
    assert human.rstrip().endswith("verify: `pytest -q tests/test_users.py`")  # the task comes last


@pytest.mark.parametrize("budget", [600, 900, 1500, 4000])
def test_every_pack_fits_its_budget_and_records_each_section(tmp_path: Path, budget: int) -> None:
    pack = pack_for(fixture_workspace(tmp_path), "cart total and user rename", budget_tokens=budget)
    assert pack.tokens <= budget
    assert [name for name, _, _ in pack.sections] == [
        "system",
        "tools",
        "instructions",
        "skills",
        "map",
        "scoped_instructions",
        "skill_bodies",
        "memory",
        "task_map",
        "excerpts",
        "task",
    ]
    assert all(tokens == count_tokens(text) for _, tokens, text in pack.sections)


def test_a_section_over_its_share_is_cut_with_a_marker(tmp_path: Path) -> None:
    root = fixture_workspace(tmp_path)
    (root / "CLAUDE.md").write_text("".join(f"- convention {i}: keep functions short\n" for i in range(300)))
    pack = pack_for(root, "cart total", budget_tokens=1200)
    instructions = dict((name, text) for name, _, text in pack.sections)["instructions"]
    assert "lines cut: budget]" in instructions
    assert pack.tokens <= 1200


def test_identifier_only_roles_get_signatures_not_bodies(tmp_path: Path) -> None:
    root = fixture_workspace(tmp_path)
    pack = build_pack(
        "planner",
        settings=Settings(),
        workspace=root,
        query="apply_discount and create_user",
        system_prompt=SYSTEM,
        budget_tokens=1500,
    )
    assert pack.excerpts == ()
    code = dict((name, text) for name, _, text in pack.sections)["excerpts"]
    assert "15\tdef apply_discount(cart, rate):" in code
    assert "return cart.total() * (1 - rate)" not in code


def test_a_failed_index_build_leaves_a_pack_without_a_map_and_says_why(tmp_path: Path) -> None:
    root = fixture_workspace(tmp_path)
    (root / ".slmcode" / "cache").mkdir(parents=True)
    (root / ".slmcode" / "cache" / "repomap.sqlite").mkdir()  # a folder where the cache file should be
    pack = pack_for(root, "cart total", focus_files=["shop/cart.py"])
    assert pack.map_entries == ()
    assert any("no repository map" in note for note in pack.notes)
    assert any(e.path == "shop/cart.py" for e in pack.excerpts)


RENDER = """
import sys
from pathlib import Path
from tests.packs.test_taskpack import fixture_workspace, pack_for
pack = pack_for(Path(sys.argv[1]), "apply_discount ignores a zero rate; rename_user keeps the email")
sys.stdout.write(pack.render())
"""


def test_render_is_byte_identical_across_processes_with_different_hash_seeds(tmp_path: Path) -> None:
    root = fixture_workspace(tmp_path)
    outputs = []
    for seed in ("1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-c", RENDER, str(root)],
            capture_output=True,
            env=env,
            cwd=Path(__file__).parents[2],
            check=True,
        )
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1] and b"apply_discount" in outputs[0]


def test_the_system_prompt_matches_its_snapshot(tmp_path: Path) -> None:
    """A prompt never changes by accident: update the snapshot on purpose (UPDATE_SNAPSHOTS=1)."""
    pack = pack_for(fixture_workspace(tmp_path), "apply_discount ignores a zero rate")
    text = pack.system_text() + "\n"
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        SNAPSHOT.write_text(text, encoding="utf-8")
    assert text == SNAPSHOT.read_text(encoding="utf-8")


def test_pack_json_has_the_documented_shape(tmp_path: Path) -> None:
    data = json.loads(json.dumps(pack_for(fixture_workspace(tmp_path), "apply_discount").as_json()))
    assert set(data) == {"role", "budget", "tokens", "sections", "excerpts", "map", "text"}
    assert set(data["excerpts"][0]) == {"path", "start", "end", "tokens"}
    assert set(data["map"][0]) == {"path", "symbol", "line"}


def test_the_task_map_lists_only_files_whose_code_the_pack_does_not_show(tmp_path: Path) -> None:
    root = fixture_workspace(tmp_path)
    for n in range(6):  # more files than the code can show, so the task's map has something to list
        (root / "shop" / f"tax_{n}.py").write_text(f"def tax_rate_{n}(region):\n    return {n} / 100\n")
    pack = pack_for(root, "apply_discount ignores a zero rate; tax_rate_3 for the region", SMALL_MAP, budget_tokens=900)
    sections = {name: text for name, _, text in pack.sections}
    shown = {e.path for e in pack.excerpts}
    listed = {line.rstrip(":") for line in sections["task_map"].splitlines() if line.endswith(".py:")}
    assert listed and not listed & shown
    assert sections["task_map"] not in pack.system_text()  # the task's part stays out of the stable prefix


@pytest.mark.parametrize(("budget", "map_tokens"), [(900, 100), (3000, 400)])
def test_the_maps_header_is_said_once_by_whichever_part_comes_first(
    tmp_path: Path, budget: int, map_tokens: int
) -> None:
    root = fixture_workspace(tmp_path)
    for n in range(40):
        body = "".join(
            f"    rate_{k} = region.lookup('tax rate table entry {k} for this region') * {n}\n" for k in range(30)
        )
        (root / "shop" / f"tax_{n}.py").write_text(f"def tax_rate_{n}(region):\n{body}    return rate_0\n")
    # map sizes the pack's map share reaches, so there is a task map; at 3,000 its floor share holds symbols too
    pack = pack_for(root, "tax_rate for the region", Settings(repomap_tokens=map_tokens), budget_tokens=budget)
    sections = {name: text for name, _, text in pack.sections}
    assert sections["task_map"], "the fixture must leave files for the task's map"
    assert (sections["map"] + sections["task_map"]).count(MAP_HEADER) == 1
    assert bool(sections["map"]) == (budget > 900)  # both cases: the stable part present and absent


def test_a_small_pack_spends_its_map_share_on_code_not_on_a_task_map(tmp_path: Path) -> None:
    root = fixture_workspace(tmp_path)
    for n in range(12):  # more code than the pack can show
        body = "".join(f"    rate_{k} = region.tax_rate_table[{k}] * {n}\n" for k in range(20))
        (root / "shop" / f"tax_{n}.py").write_text(f"def tax_rate_{n}(region):\n{body}    return rate_0\n")
    query = "apply_discount ignores a zero rate; tax_rate for the region"
    small = pack_for(root, query, budget_tokens=900)  # its map share is far below repomap_tokens
    with_map = pack_for(root, query, SMALL_MAP, budget_tokens=900)
    sections = {name: tokens for name, tokens, _ in small.sections}
    assert sections["task_map"] == 0
    code = {name: tokens for name, tokens, _ in with_map.sections}["excerpts"]
    assert sections["excerpts"] > code  # the task map's tokens went to code
