"""Excerpt windows: real line numbers, merging, and visible cuts."""

from __future__ import annotations

import re

import pytest

from slmcode.budget.tokens import default_counter
from slmcode.localize.candidates import Candidate, rank_candidates
from slmcode.localize.line_window import Window
from slmcode.localize.sources import SourceFile
from slmcode.packs import selection
from slmcode.packs.excerpts import fit_cut, merge_windows, render_file
from slmcode.packs.selection import render_excerpts, select_excerpts
from slmcode.repomap.model import Symbol

LINES = tuple(f"line {n} filler text" for n in range(1, 201))


def numbered(text: str) -> dict[int, str]:
    """The code lines of a rendered excerpt, by the line number printed in front of them."""
    return {int(m.group(1)): m.group(2) for m in re.finditer(r"^(\d+)\t(.*)$", text, re.MULTILINE)}


def test_rendered_lines_carry_the_files_own_numbers() -> None:
    text = render_file("a.py", LINES, [Window(57, 61)])
    assert text.splitlines()[0] == "### a.py (200 lines)"
    assert numbered(text) == {n: f"line {n} filler text" for n in range(57, 62)}


def test_a_files_windows_share_one_header_with_a_gap_line_between_them() -> None:
    text = render_file("a.py", LINES, [Window(90, 92), Window(10, 11)])
    assert text.splitlines() == [
        "### a.py (200 lines)",
        "10\tline 10 filler text",
        "11\tline 11 filler text",
        "...",
        "90\tline 90 filler text",
        "91\tline 91 filler text",
        "92\tline 92 filler text",
    ]


def test_a_blank_line_is_left_blank_and_the_lines_around_it_keep_their_numbers() -> None:
    lines = ("def a():", "    return 1", "", "", "def b():", "    return 2")
    text = render_file("a.py", lines, [Window(1, 6)])
    assert text.splitlines()[1:] == ["1\tdef a():", "2\t    return 1", "", "", "5\tdef b():", "6\t    return 2"]
    assert default_counter().count(text) < default_counter().count(text.replace("\n\n\n", "\n3\t\n4\t\n"))


def test_windows_merge_where_they_overlap_or_touch() -> None:
    windows = merge_windows([Window(37, 50), Window(7, 13), Window(11, 17), Window(52, 60), Window(70, 71)])
    assert windows == [Window(7, 17), Window(37, 60), Window(70, 71)]


def test_a_window_that_does_not_fit_is_cut_with_a_marker_naming_the_lines_cut() -> None:
    counter = default_counter()
    window = fit_cut("a.py", LINES, [], Window(100, 199), budget=120, counter=counter)
    assert window is not None and window.start == 100 and 100 < window.end < 199
    text = render_file("a.py", LINES, [window], {window.end: 199 - window.end})
    assert text.endswith(f"[... {199 - window.end} lines cut: budget]")
    assert counter.count(text) <= 120
    assert max(numbered(text)) == window.end


def test_a_cut_that_continues_a_shown_window_extends_it_under_the_same_header() -> None:
    counter = default_counter()
    shown = [Window(1, 20)]
    before = counter.count(render_file("a.py", LINES, shown))
    window = fit_cut("a.py", LINES, shown, Window(21, 120), budget=60, counter=counter)
    assert window is not None and window.start == 21 and window.end < 120
    text = render_file("a.py", LINES, [*shown, window], {window.end: 120 - window.end})
    assert text.count("### a.py") == 1 and "\n...\n" not in text
    assert sorted(numbered(text)) == list(range(1, window.end + 1))
    assert counter.count(text) - before <= 60


def source() -> SourceFile:
    lines = [f"# filler line {n}" for n in range(1, 121)]
    lines[49] = "def apply_discount(order, rate):"
    lines[50] = "    return order.total * (1 - rate)"
    lines[89] = "    value = apply_discount(order, 0.1)"
    symbols = (
        Symbol("shop/pricing.py", "apply_discount", "function", 50, 56, "def apply_discount(order, rate):"),
        Symbol("shop/pricing.py", "checkout", "function", 85, 95, "def checkout(order):"),
    )
    return SourceFile("shop/pricing.py", tuple(lines), symbols)


def test_selected_excerpts_hold_the_lines_the_query_names_with_their_real_numbers() -> None:
    counter = default_counter()
    sources = [source()]
    candidates = rank_candidates(sources, "apply_discount rounds the wrong way")
    excerpts = select_excerpts(sources, candidates, budget=400, counter=counter)
    shown = {n: line for e in excerpts for n, line in numbered(e.text).items()}
    assert shown[50] == "def apply_discount(order, rate):"
    assert shown[90] == "    value = apply_discount(order, 0.1)"
    spans = [(e.start, e.end) for e in excerpts]
    assert (50, 56) in spans and (85, 95) in spans  # whole definitions, the one the query names first
    assert spans.index((50, 56)) < spans.index((85, 95))
    assert render_excerpts(sources, excerpts).count("### shop/pricing.py (120 lines)") == 1  # one header per file
    assert all(counter.count(e.text) == e.tokens for e in excerpts)
    assert sum(e.tokens for e in excerpts) <= 400


def test_leftover_budget_shows_more_of_the_chosen_file_up_to_the_whole_file() -> None:
    counter = default_counter()
    sources = [source()]
    candidates = rank_candidates(sources, "apply_discount rounds the wrong way")
    narrow = select_excerpts(sources, candidates, budget=400, counter=counter)
    assert sum(e.end - e.start + 1 for e in narrow) > 18  # more than the two definitions
    assert sum(e.tokens for e in narrow) <= 400
    whole = select_excerpts(sources, candidates, budget=5000, counter=counter)
    assert [(e.start, e.end) for e in whole] == [(1, 120)]


def test_excerpts_never_exceed_their_budget() -> None:
    counter = default_counter()
    sources = [source()]
    candidates = [Candidate("shop/pricing.py", Window(1, 120), 1.0)]
    excerpts = select_excerpts(sources, candidates, budget=150, counter=counter)
    assert len(excerpts) == 1 and "lines cut: budget]" in excerpts[0].text
    assert excerpts[0].tokens <= 150


def test_breadth_gives_a_second_file_a_glimpse_of_its_matching_lines() -> None:
    counter = default_counter()
    lines: list[str] = []
    symbols = []
    for n in range(8):  # eight spans that all match better than the second file does
        symbols.append(Symbol("shop/pricing.py", f"discount_{n}", "function", len(lines) + 1, len(lines) + 8, ""))
        lines += [f"def discount_{n}(order):", *(f"    apply_discount(order, rate_{n}_{k})" for k in range(7))]
    other_lines = [f"# note {n}" for n in range(1, 61)]
    other_lines[29] = "# the discount applies here"
    sources = [
        SourceFile("shop/pricing.py", tuple(lines), tuple(symbols)),
        SourceFile("shop/notes.py", tuple(other_lines), ()),
    ]
    candidates = rank_candidates(sources, "apply_discount rounds the wrong way in checkout")
    glimpsed = select_excerpts(sources, candidates, budget=400, counter=counter, breadth_share=0.5)
    notes = [(e.start, e.end) for e in glimpsed if e.path == "shop/notes.py"]
    assert notes == [(24, 35)]  # twelve lines around the line that matched
    assert sum(e.tokens for e in glimpsed) <= 400
    depth_only = select_excerpts(sources, candidates, budget=400, counter=counter, breadth_share=0.0)
    assert not any(e.path == "shop/notes.py" for e in depth_only)  # the first file's spans took it all


def test_a_small_pack_mentions_more_files_by_their_best_matching_line(monkeypatch: pytest.MonkeyPatch) -> None:
    counter = default_counter()
    lines: list[str] = []
    symbols = []
    for n in range(8):  # eight matching spans: the first file's glimpse and spans would fill a small pack alone
        symbols.append(Symbol("shop/pricing.py", f"discount_{n}", "function", len(lines) + 1, len(lines) + 8, ""))
        lines += [f"def discount_{n}(order):", *(f"    apply_discount(order, rate_{n}_{k})" for k in range(7))]
    others = []  # five files that match nearly as well, each on one line
    for k in range(5):
        text = [f"# note {n} of file {k}" for n in range(1, 61)]
        text[29] = f"    total_{k} = apply_discount(checkout_{k}, rounding)"
        others.append(SourceFile(f"shop/notes_{k}.py", tuple(text), ()))
    sources = [SourceFile("shop/pricing.py", tuple(lines), tuple(symbols)), *others]
    candidates = rank_candidates(sources, "apply_discount rounds the wrong way in checkout")
    monkeypatch.setattr(selection, "MENTION_SHARE", 0.0)
    glimpses_only = {e.path for e in select_excerpts(sources, candidates, budget=500, counter=counter)}
    monkeypatch.setattr(selection, "MENTION_SHARE", 0.1)
    shown = select_excerpts(sources, candidates, budget=500, counter=counter)
    mentioned = [e for e in shown if e.path not in glimpses_only]
    assert len(mentioned) >= 2
    for excerpt in mentioned:  # the line that matched
        assert (excerpt.start, excerpt.end) == (30, 30)
        assert numbered(excerpt.text)[30].endswith("= apply_discount(checkout_" + excerpt.path[-4] + ", rounding)")
    assert sum(e.tokens for e in shown) <= 500
