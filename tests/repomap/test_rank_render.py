"""Ranking and rendering: what the query names comes first, and the map always fits its budget."""

from __future__ import annotations

import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from slmcode.budget.tokens import default_counter
from slmcode.config import Settings
from slmcode.repomap.build import load_index, render_map
from slmcode.repomap.cache import cache_path
from slmcode.repomap.model import FileSymbols, Symbol, SymbolIndex
from slmcode.repomap.query import query_identifiers

PROJECT = {
    "app/main.py": "from app.billing import charge_invoice\nfrom app.util import log\n\n"
    "def main():\n    log('start')\n    charge_invoice(1)\n    log('done')\n",
    "app/billing.py": "from app.util import log\n\n\nclass InvoiceError(Exception):\n    pass\n\n\n"
    "def charge_invoice(invoice_id):\n    log('charging')\n    return invoice_id\n",
    "app/util.py": "def log(message):\n    print(message)\n\n\ndef unused_helper():\n    return 0\n",
    "app/report.py": "from app.util import log\n\ndef monthly_report():\n    log('report')\n",
}


def project(tmp_path: Path) -> SymbolIndex:
    for path, text in PROJECT.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    return load_index(tmp_path, Settings())


def test_the_file_defining_the_query_identifier_ranks_first(tmp_path: Path) -> None:
    index = project(tmp_path)
    result = render_map(index, query="Why does monthly_report print twice?")
    assert result.files[0] == "app/report.py"
    assert result.symbols[0].symbol.name == "monthly_report"


def test_without_a_query_the_most_used_file_ranks_first(tmp_path: Path) -> None:
    result = render_map(project(tmp_path))
    assert result.files[0] == "app/util.py"
    assert result.symbols[0].symbol.name == "log"


def test_a_mentioned_path_and_focus_files_steer_the_map(tmp_path: Path) -> None:
    index = project(tmp_path)
    assert render_map(index, query="look at billing.py").files[0] == "app/billing.py"
    # The focus file's body is in the pack already; the map leads with what it uses.
    assert render_map(index, focus_files=["app/main.py"]).symbols[0].symbol.name in {"charge_invoice", "log"}


def test_a_bare_file_name_in_the_query_names_that_file(tmp_path: Path) -> None:
    result = render_map(project(tmp_path), query="the report module is slow")
    assert result.files[0] == "app/report.py"


def test_map_lists_signatures_with_real_line_ranges(tmp_path: Path) -> None:
    text = render_map(project(tmp_path), query="charge_invoice").text
    assert "app/billing.py:\n" in text
    assert "  8-10: def charge_invoice(invoice_id):\n" in text


def test_same_inputs_render_the_same_bytes(tmp_path: Path) -> None:
    index = project(tmp_path)
    maps = {render_map(index, query="log invoice", budget_tokens=60).text for _ in range(3)}
    assert len(maps) == 1


def test_query_identifiers_are_sorted_and_keep_paths() -> None:
    assert query_identifiers("Fix parse_args in src/cli.py where the Parser fails") == [
        "Fix",
        "Parser",
        "cli",
        "fails",
        "parse_args",
        "py",
        "src",
        "src/cli.py",
    ]


def _index(files: dict[str, list[tuple[str, str]]]) -> SymbolIndex:
    index = SymbolIndex()
    for f, (path, defs) in enumerate(sorted(files.items())):
        symbols = tuple(Symbol(path, name, "function", i + 1, i + 3, sig) for i, (name, sig) in enumerate(defs))
        refs = tuple(sorted({n for other, d in files.items() if other != path for n, _ in d[: f % 3]}))
        index.files[path] = FileSymbols(path, "python", symbols, refs, (2,) * len(refs))
    return index


names = st.from_regex(r"[a-z_][a-z0-9_]{0,20}", fullmatch=True)
signatures = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=120)
indexes = st.dictionaries(
    st.from_regex(r"[a-z]{1,8}/[a-z]{1,8}\.py", fullmatch=True),
    st.lists(st.tuples(names, signatures), max_size=12),
    max_size=8,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files=indexes, budget=st.integers(min_value=1, max_value=400), query=st.text(max_size=40))
def test_a_rendered_map_never_exceeds_its_budget(
    files: dict[str, list[tuple[str, str]]], budget: int, query: str
) -> None:
    result = render_map(_index(files), query=query, budget_tokens=budget)
    counter = default_counter()
    assert result.tokens == counter.count(result.text) <= budget
    assert result.budget == budget
    # Largest that fits: one more symbol would not.
    total = sum(len(d) for d in files.values())
    if len(result.symbols) < total and result.symbols:
        bigger = render_map(_index(files), query=query, budget_tokens=10_000)
        assert counter.count(bigger.text) > budget or len(bigger.symbols) == len(result.symbols)


def test_a_warm_map_ranks_from_the_cached_graph_as_a_fresh_one_does(tmp_path: Path) -> None:
    cold = project(tmp_path)
    warm = load_index(tmp_path, Settings())  # nothing changed: the graph comes from the cache
    in_memory = SymbolIndex(files={path: cold.files[path] for path in cold.files})  # built here, uncached
    for query in ("", "Why does monthly_report print twice?", "look at billing.py"):
        expected = render_map(in_memory, query=query)
        assert render_map(warm, query=query).text == expected.text == render_map(cold, query=query).text
    assert [r.rank for r in render_map(warm).symbols] == [r.rank for r in render_map(in_memory).symbols]


def test_the_graph_follows_an_edited_file(tmp_path: Path) -> None:
    project(tmp_path)
    assert render_map(load_index(tmp_path, Settings())).files[0] == "app/util.py"
    # Every file now calls charge_invoice three times and log no more: billing.py becomes the most used.
    for name in ("app/main.py", "app/report.py", "app/util.py"):
        (tmp_path / name).write_text(
            "from app.billing import charge_invoice\n\n\ndef go_" + name[4:-3] + "():\n"
            "    charge_invoice(1)\n    charge_invoice(2)\n    charge_invoice(3)\n"
        )
    assert render_map(load_index(tmp_path, Settings())).files[0] == "app/billing.py"


def test_after_one_file_changes_the_map_is_the_one_a_cold_build_gives(tmp_path: Path) -> None:
    project(tmp_path)
    load_index(tmp_path, Settings())  # warm: the graph is cached
    (tmp_path / "app/report.py").write_text(
        "from app.billing import charge_invoice\n\n\ndef monthly_total(rows):\n"
        "    return sum(charge_invoice(r) for r in rows)\n"
    )
    updated = load_index(tmp_path, Settings())  # rows of the other files and the graph rebuilt from the cache
    shutil.rmtree(cache_path(tmp_path).parent)
    cold = load_index(tmp_path, Settings())
    assert cold.version == updated.version
    for query in ("", "monthly_total in report.py", "charge_invoice"):
        fresh, incremental = render_map(cold, query=query), render_map(updated, query=query)
        assert incremental.text == fresh.text
        assert [r.rank for r in incremental.symbols] == [r.rank for r in fresh.symbols]
    assert "monthly_total" in render_map(updated).text
