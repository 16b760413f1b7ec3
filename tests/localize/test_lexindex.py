"""The lexical index: packs read each file's terms from the workspace's cache, and an edit is never missed."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest

from slmcode.localize.candidates import rank_candidates
from slmcode.localize.lexindex import index_path
from slmcode.localize.sources import read_sources


def sources(workspace: Path) -> list:
    return read_sources(workspace, ["billing.py", "util.py"], None, 1_000_000)


def test_an_edited_file_is_ranked_by_its_new_words(tmp_path: Path) -> None:
    (tmp_path / "util.py").write_text("def log(message):\n    print(message)\n")
    (tmp_path / "billing.py").write_text("def charge(n):\n    return n\n")
    assert not rank_candidates(sources(tmp_path), "refund the invoice")
    assert index_path(tmp_path).is_file()  # the terms were stored
    (tmp_path / "billing.py").write_text("def charge(n):\n    return n\n\n\ndef refund_invoice(n):\n    return -n\n")
    found = rank_candidates(sources(tmp_path), "refund the invoice")
    assert {c.path for c in found} == {"billing.py"}
    assert found[0].window.start <= 5 <= found[0].window.end
    # Read back from the index, the terms are the ones a fresh split gives.
    again = sources(tmp_path)
    assert again[0].line_terms[4] == ["refund_invoice", "refund", "invoice"]


def test_a_cache_that_cannot_be_written_costs_speed_not_the_pack(tmp_path: Path) -> None:
    (tmp_path / "util.py").write_text("def log_message(message):\n    print(message)\n")
    (tmp_path / ".slmcode").write_text("not a folder")  # the cache folder cannot be made
    found = rank_candidates(sources(tmp_path), "log a message")
    assert {c.path for c in found} == {"util.py"}


def test_bm25_from_counts_scores_as_okapi_bm25_over_the_whole_documents() -> None:
    from slmcode.localize.lexical import bm25_from_counts

    docs = [["repo", "map", "cache", "map"], [], ["cache", "row"], ["budget"] * 5, ["map", "budget", "token"]]
    k1, b, n, average = 1.2, 0.75, len(docs), sum(map(len, docs)) / len(docs)
    for query in (["map", "cache"], ["budget", "map", "budget"], ["absent"], []):
        asked = list(dict.fromkeys(query))
        counts = [{t: doc.count(t) for t in asked if t in doc} for doc in docs]
        held = [(i, c) for i, c in enumerate(counts) if c]  # only the documents holding a query term
        scores, idf = bm25_from_counts([len(doc) for doc in docs], held, query)
        frequency = {t: sum(t in doc for doc in docs) for t in asked}
        expected_idf = {t: math.log(1 + (n - df + 0.5) / (df + 0.5)) for t, df in frequency.items() if df}
        expected = [
            sum(
                expected_idf[t] * doc.count(t) * (k1 + 1) / (doc.count(t) + k1 * (1 - b + b * len(doc) / average))
                for t in asked
                if t in doc
            )
            for doc in docs
        ]
        assert idf == pytest.approx(expected_idf)
        assert scores == pytest.approx(expected)


def test_a_term_is_found_whole_on_its_lines_never_inside_a_longer_term() -> None:
    from slmcode.localize.termlines import QueryHits, TermLines

    lines = TermLines.from_lines([["map", "bitmap"], [], ["repo_map", "repo", "map", "map"], ["mapping"]])
    assert lines.occurrences("map") == [1, 3, 3]
    assert lines.occurrences("repo") == [3]
    assert lines.occurrences("absent") == []
    assert (lines.total, lines.span_length(2, 3), len(lines), lines[2]) == (7, 4, 4, ["repo_map", "repo", "map", "map"])
    hits = QueryHits(lines, ["repo", "map"], ["map", "repo", "cache"])
    assert hits.counts(2, 4) == {"map": 3, "repo": 2}  # the path's terms count once, as in a span's document
    assert hits.counts(1, 4, path_weight=3) == {"map": 6, "repo": 4}
    assert hits.on_line == {1: ["map"], 3: ["map", "repo"]}


def test_the_index_ranks_exactly_as_splitting_every_line_does(tmp_path: Path) -> None:
    (tmp_path / "util.py").write_text("import os\n\n\ndef bitmap(x):\n    return x\n" * 6)
    (tmp_path / "billing.py").write_text(
        "".join(f"def refund_{i}(invoice):\n    return invoice.map(refund)\n\n\n" for i in range(20))
        + "class RepoMap:\n    def map(self):\n        return 'map refund invoice'\n"
    )
    indexed = sources(tmp_path)
    indexed = sources(tmp_path)  # the second read comes from the index
    split = [replace(s, line_terms=None) for s in indexed]
    for query in ("refund the invoice map", "RepoMap map", "bitmap in util.py"):
        assert rank_candidates(indexed, query) == rank_candidates(split, query)
        assert rank_candidates(indexed, query)
