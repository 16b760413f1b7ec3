"""Fitted maps read back per index version: the same map as fitting it again, never a stale one."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from slmcode.budget.tokens import TokenCounter, default_counter
from slmcode.config import Settings
from slmcode.repomap import build
from slmcode.repomap.build import load_index, render_map
from slmcode.repomap.cache import cache_path
from slmcode.repomap.model import SymbolIndex
from tests.repomap.test_rank_render import PROJECT, project


def stored_maps(root: Path) -> int:
    with sqlite3.connect(cache_path(root)) as conn:
        return conn.execute("SELECT count(*) FROM maps").fetchone()[0]


def test_a_map_asked_again_is_the_one_fitting_gives(tmp_path: Path) -> None:
    project(tmp_path)
    in_memory = SymbolIndex(files=dict(load_index(tmp_path, Settings()).files.items()))  # no cache: fitted here
    for query, budget in (("", 1000), ("Why does monthly_report print twice?", 1000), ("", 40)):
        first = render_map(load_index(tmp_path, Settings()), query=query, budget_tokens=budget)
        again = render_map(load_index(tmp_path, Settings()), query=query, budget_tokens=budget)
        assert again == first == render_map(in_memory, query=query, budget_tokens=budget)
    assert stored_maps(tmp_path) == 3  # one per (query, budget), read back the second time


def test_an_edited_file_is_never_shown_from_an_older_map(tmp_path: Path) -> None:
    project(tmp_path)
    assert "def log(message):" in render_map(load_index(tmp_path, Settings())).text
    (tmp_path / "app/util.py").write_text(PROJECT["app/util.py"].replace("def log(message)", "def log(message, level)"))
    shown = render_map(load_index(tmp_path, Settings())).text
    assert "def log(message, level):" in shown and "def log(message):" not in shown
    assert stored_maps(tmp_path) == 1  # the older version's map is dropped with it


def test_after_an_edit_outside_the_map_its_texts_are_not_counted_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project(tmp_path)
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes/scratch.py").write_text("print(1)\n")
    counted: list[str] = []
    real = default_counter()
    spy = TokenCounter(real.name, lambda text: counted.append(text) or real.encode(text))  # type: ignore[misc]
    monkeypatch.setattr(build, "default_counter", lambda: spy)
    first = render_map(load_index(tmp_path, Settings()), budget_tokens=60)
    assert counted  # fitted: every text it tried was counted
    counted.clear()
    (tmp_path / "notes/scratch.py").write_text("print(2)\n")  # a new index version; nothing of it on the map
    again = render_map(load_index(tmp_path, Settings()), budget_tokens=60)
    assert again.text == first.text and again.tokens == first.tokens == real.count(first.text)
    assert counted == []  # the same texts tried: their counts read back, the tokenizer never asked
    (tmp_path / "app/util.py").write_text("def log(message, level):\n    print(message)\n")
    shown = render_map(load_index(tmp_path, Settings()), budget_tokens=60)
    assert counted and shown.tokens == real.count(shown.text) <= 60  # a new text is counted for real
