"""Spans aligned to definitions: what localisation ranks instead of fixed windows."""

from __future__ import annotations

import itertools

from slmcode.localize.line_window import Window
from slmcode.localize.units import symbol_units
from slmcode.repomap.model import Symbol


def sym(name: str, start: int, end: int, kind: str = "function") -> Symbol:
    return Symbol("a.py", name, kind, start, end, f"def {name}():")


def test_units_cover_the_file_in_order_without_gaps_or_overlaps() -> None:
    symbols = (
        sym("Big", 20, 130, "class"),
        sym("one", 22, 40, "method"),
        sym("two", 42, 90, "method"),
        sym("tail", 140, 150),
    )
    units = symbol_units(160, symbols)
    assert units[0].start == 1 and units[-1].end == 160
    assert all(a.end + 1 == b.start for a, b in itertools.pairwise(units))
    assert all(u.size <= 40 for u in units)


def test_a_short_definition_is_one_unit_and_a_long_class_gives_way_to_its_methods() -> None:
    symbols = (sym("Big", 20, 130, "class"), sym("one", 22, 40, "method"), sym("tail", 140, 150))
    units = symbol_units(160, symbols)
    assert Window(22, 40) in units  # the method whole, not the 111-line class
    assert Window(140, 150) in units


def test_tiny_spans_join_a_neighbour_and_an_empty_file_has_none() -> None:
    symbols = (sym("a", 1, 2), sym("b", 3, 4), sym("c", 5, 30), sym("d", 50, 51))
    assert symbol_units(60, symbols) == [Window(1, 30), Window(31, 51), Window(52, 60)]  # joined with the span before
    assert symbol_units(0, symbols) == []
