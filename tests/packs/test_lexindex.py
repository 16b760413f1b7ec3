"""The lexical index: packs read each file's terms from the workspace's cache, and an edit is never missed."""

from __future__ import annotations

from pathlib import Path

from slmcode.packs.lexindex import index_path
from slmcode.packs.localize import rank_candidates, read_sources


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


def test_query_bm25_scores_as_the_full_index_does() -> None:
    from slmcode.packs.lexical import BM25, query_bm25

    docs = [["repo", "map", "cache", "map"], [], ["cache", "row"], ["budget"] * 5, ["map", "budget", "token"]]
    for query in (["map", "cache"], ["budget", "map", "budget"], ["absent"], []):
        full = BM25.build(docs)
        scores, idf = query_bm25(docs, query)
        assert scores == full.scores(query)
        assert idf == {t: full.idf[t] for t in dict.fromkeys(query) if t in full.idf}
