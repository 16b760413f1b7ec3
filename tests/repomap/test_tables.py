"""After an edit the graph is patched from the last build's name tables, and the map is the cold build's."""

from __future__ import annotations

import shutil
import sqlite3
from dataclasses import fields
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slmcode.config import Settings
from slmcode.repomap import build
from slmcode.repomap.build import load_index, render_map
from slmcode.repomap.cache import cache_path
from slmcode.repomap.tables import NameTables, patched_tables, tables_from_files
from tests.repomap.test_rank_render import PROJECT, project

spelled = st.lists(st.sampled_from(["a", "b", "charge", "log", "x_y", "zeta", "\udce9t"]), unique=True, max_size=5)
file_names = st.tuples(spelled, spelled).map(
    lambda pair: (pair[0], list(range(1, len(pair[0]) + 1)), pair[1], [len(n) for n in pair[1]])
)


def same(left: NameTables, right: NameTables) -> bool:
    return all(
        np.array_equal(getattr(left, f.name), getattr(right, f.name))
        if isinstance(getattr(left, f.name), np.ndarray)
        else getattr(left, f.name) == getattr(right, f.name)
        for f in fields(NameTables)
    )


@settings(max_examples=80, deadline=None)
@given(
    before=st.dictionaries(st.sampled_from("pqrstu"), file_names, max_size=6),
    after=st.dictionaries(st.sampled_from("pqrstu"), file_names, max_size=6),
    kept=st.sets(st.sampled_from("pqrstu")),
)
def test_patched_tables_equal_the_tables_built_from_every_file(
    before: dict[str, tuple], after: dict[str, tuple], kept: set[str]
) -> None:
    # Files in `kept` that exist on both sides keep their old bytes (digest); the others are new or edited.
    now = {path: (before[path] if path in kept and path in before else names) for path, names in after.items()}
    old_paths, new_paths = sorted(before), sorted(now)
    old = tables_from_files(old_paths, [repr(before[p]) for p in old_paths], [before[p] for p in old_paths])
    digests = [repr(now[p]) for p in new_paths]
    patched = patched_tables(old, new_paths, digests, lambda path: now[path])
    assert same(patched, tables_from_files(new_paths, digests, [now[p] for p in new_paths]))
    assert same(NameTables.from_bytes(patched.to_bytes()), patched)


def test_after_edits_the_patched_graph_is_the_cold_builds_byte_for_byte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for i in range(6):  # files no edit touches: most of a repository
        (tmp_path / f"lib/part{i}.py").parent.mkdir(exist_ok=True)
        (tmp_path / f"lib/part{i}.py").write_text(f"def part_{i}():\n    return charge_invoice({i})\n")
    project(tmp_path)  # cold: the graph and its tables stored
    (tmp_path / "app/report.py").write_text(
        "from app.billing import charge_invoice\n\n\ndef monthly_total(rows):\n"
        "    return sum(charge_invoice(r) for r in rows)\n"
    )
    (tmp_path / "app/audit.py").write_text("def audit_invoice(invoice_id):\n    return monthly_total([invoice_id])\n")
    (tmp_path / "app/util.py").rename(tmp_path / "app/helpers.py")
    (tmp_path / "app/main.py").unlink()

    def no_full_build(*args: object) -> None:
        raise AssertionError("rebuilt from every file instead of patching")

    monkeypatch.setattr(build, "tables_from_files", no_full_build)
    patched = load_index(tmp_path, Settings())
    monkeypatch.undo()
    shutil.rmtree(cache_path(tmp_path).parent)
    cold = load_index(tmp_path, Settings())
    assert patched.version == cold.version
    assert patched.graph.to_bytes() == cold.graph.to_bytes()
    for query in ("", "monthly_total in report.py", "charge_invoice audit"):
        assert render_map(patched, query=query).text == render_map(cold, query=query).text
    assert "audit_invoice" in render_map(patched, query="audit").text


def test_unreadable_stored_tables_mean_a_build_from_every_file(tmp_path: Path) -> None:
    project(tmp_path)
    with sqlite3.connect(cache_path(tmp_path)) as conn:
        conn.execute("UPDATE name_tables SET data = ?", (b"not numpy",))
    (tmp_path / "app/report.py").write_text(PROJECT["app/report.py"] + "\n\ndef yearly_report():\n    log('y')\n")
    after_edit = render_map(load_index(tmp_path, Settings())).text
    shutil.rmtree(cache_path(tmp_path).parent)
    assert after_edit == render_map(load_index(tmp_path, Settings())).text
    assert "yearly_report" in after_edit
